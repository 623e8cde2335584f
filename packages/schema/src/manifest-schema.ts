import { z } from "zod";
import { authSchema } from "./auth-schema.js";
import { eventManifestRules } from "./event-rules.js";
import { eventSchema } from "./event-schema.js";
import { FORBIDDEN_KEYS, forbiddenKeys } from "./forbidden-keys.js";
import { text } from "./field-schemas.js";
import { manifestRules } from "./manifest-rules.js";
import { operationSchema } from "./operation-schema.js";
import { providerErrorsSchema } from "./provider-errors.js";
import { keysCheck, rulesCheck } from "./rule-checks.js";

export { DEFAULT_MAX_LENGTH, MAX_MAX_LENGTH } from "./field-schemas.js";
export {
  argSchema,
  operationSchema,
  pickSchema,
  forEachStringLeaf,
  type Access,
  type Arg,
  type Method,
  type Operation,
  type Pick,
} from "./operation-schema.js";
export { authSchema, tenantSchema, type Auth, type Tenant } from "./auth-schema.js";
export type { OAuthSettings } from "./oauth-schema.js";

const ID = /^[a-z][a-z0-9-]*$/;

const manifestObjectSchema = z
  .strictObject({
    $schema: z.string().optional(),
    schema: z.literal(1),
    id: z.string().max(40, "must be at most 40 characters").regex(ID, "must be a lowercase slug [a-z][a-z0-9-]*"),
    name: text(80),
    category: text(40),
    auth: authSchema,
    errors: providerErrorsSchema.optional(),
    ops: z.array(operationSchema).min(1, "needs at least one op"),
    /** What the integration tells a bot on its own (fourth release); absent: no events. */
    events: z.array(eventSchema).max(100).optional(),
  })
  .check(
    rulesCheck((manifest, issue) => {
      const seen = new Set<string>();
      manifest.ops.forEach((operation, index) => {
        if (seen.has(operation.id)) issue(["ops", index, "id"], `duplicates op id "${operation.id}"`);
        seen.add(operation.id);
      });
      manifestRules(manifest, issue);
      eventManifestRules(manifest, issue);
    }),
  );

/**
 * Manifest schema v1. The raw JSON is first searched for `__proto__`, `constructor` and
 * `prototype` keys at any depth (a record would drop `__proto__` silently and validate
 * a manifest other than the one written); then every field and cross-field rule applies.
 */
export const manifestSchema = z
  .unknown()
  .check(
    keysCheck(FORBIDDEN_KEYS, (json: unknown, issue) => {
      for (const found of forbiddenKeys(json)) {
        issue(
          [...found.path],
          `the key "${found.key}" is not allowed anywhere in a manifest: it names JavaScript's prototype machinery, and would be dropped or misread rather than kept as data`,
        );
      }
    }),
  )
  .pipe(manifestObjectSchema);

export type Manifest = z.infer<typeof manifestObjectSchema>;
export type JsonValue = z.infer<typeof z.json>;

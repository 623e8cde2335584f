import { z } from "zod";
import { dotPathProblem } from "./dot-path.js";
import { problemCheck, rulesCheck } from "./rule-checks.js";

/** Our closed codes a provider's own error code may map to. */
export const MAPPABLE_ERROR_CODES = ["unauthorized", "forbidden", "not_found", "rate_limited", "upstream_error"] as const;
export type MappableErrorCode = (typeof MAPPABLE_ERROR_CODES)[number];

const dotPath = z.string().check(problemCheck(dotPathProblem));

/** One dot-path, or up to four tried in order (the first holding a string or number wins). */
const pathList = z.union([dotPath, z.array(dotPath).min(1).max(4)]);

/**
 * How a 2xx answer says it failed: the value at `path` equals `equals` (Slack's
 * `"ok": false`), or is `present` (GraphQL's `errors`: there, not null, not an empty array).
 */
export const failedWhenSchema = z
  .strictObject({
    path: dotPath,
    equals: z.union([z.boolean(), z.number(), z.string().max(200), z.null()]).optional(),
    present: z.literal(true).optional(),
  })
  .check(
    rulesCheck((when, issue) => {
      const hasEquals = Object.hasOwn(when, "equals");
      if (hasEquals === (when.present !== undefined)) issue([], 'needs exactly one of "equals" or "present"');
    }),
  );

/**
 * The integration's error dialect: how a 2xx answer says it failed, where the provider's
 * own error code and message sit in any error answer (2xx failure, 4xx or 5xx), and a map
 * from provider codes to our closed codes.
 */
export const providerErrorsSchema = z
  .strictObject({
    failed_when: failedWhenSchema.optional(),
    code: pathList.optional(),
    message: pathList.optional(),
    codes: z.record(z.string().min(1).max(200), z.enum(MAPPABLE_ERROR_CODES)).optional(),
  })
  .check(
    rulesCheck((errors, issue) => {
      if (errors.failed_when === undefined && errors.code === undefined && errors.message === undefined) {
        issue([], 'declares nothing: give "failed_when", "code" or "message"');
      }
      if (errors.codes !== undefined && errors.code === undefined) issue(["codes"], 'maps provider codes, so "code" must say where they sit');
    }),
  );

export type ProviderErrors = z.infer<typeof providerErrorsSchema>;
export type FailedWhen = z.infer<typeof failedWhenSchema>;

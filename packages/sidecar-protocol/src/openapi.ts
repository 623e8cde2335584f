import { argSchema } from "@eleven-integrations/schema";
import { z } from "zod";
import { opsBodySchema, policyBodySchema, revokeBodySchema, runBodySchema, searchBodySchema, whoamiBodySchema } from "./body-schemas.js";
import {
  accountSchema,
  confirmationRequiredSchema,
  confirmDetailSchema,
  errorEnvelopeSchema,
  okEnvelopeSchema,
  runAnswerSchema,
  runErrorSchema,
} from "./envelope-schemas.js";
import { bodyIssueSchema, httpErrorBodySchema } from "./http-error-schema.js";
import { identityAnswerSchema, registryInfoSchema } from "./identity-schema.js";
import { opsAnswerSchema, paletteOperationSchema, paletteRefusalSchema, paletteSchema } from "./palette-schema.js";
import { policyAnswerSchema, policyOperationSchema, policyReviewSchema, refusedApprovalSchema } from "./policy-schema.js";
import { deliveredEventSchema, eventsAnswerSchema, eventsBodySchema, subscribeAnswerSchema, subscribeBodySchema } from "./events-schema.js";
import { revokeAnswerSchema } from "./revoke-schema.js";
import { OPENAPI_PATH, SIDECAR_ROUTES, type SidecarRoute } from "./routes.js";
import { healthAnswerSchema, PROBE_PATHS, readyAnswerSchema } from "./probe-schema.js";
import { grantStatusSchema, readinessHitSchema, searchAnswerSchema } from "./search-schema.js";
import { whoamiAccountSchema, whoamiAnswerSchema } from "./whoami-schema.js";

/** The contract's version, the `v1` of its paths; the description ships with the package's own version. */
export const PROTOCOL_VERSION = "1";

const JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema";

/** Named schemas of the description: bodies are read as input (what a caller may send), answers as output. */
const BODY_SCHEMAS: Record<string, z.ZodType> = {
  OpsBody: opsBodySchema,
  RunBody: runBodySchema,
  SearchBody: searchBodySchema,
  RevokeBody: revokeBodySchema,
  WhoamiBody: whoamiBodySchema,
  PolicyBody: policyBodySchema,
  SubscribeBody: subscribeBodySchema,
  EventsBody: eventsBodySchema,
};

const ANSWER_SCHEMAS: Record<string, z.ZodType> = {
  IdentityAnswer: identityAnswerSchema,
  RegistryInfo: registryInfoSchema,
  OpsAnswer: opsAnswerSchema,
  Palette: paletteSchema,
  PaletteOperation: paletteOperationSchema,
  PaletteRefusal: paletteRefusalSchema,
  Arg: argSchema,
  RunAnswer: runAnswerSchema,
  OkEnvelope: okEnvelopeSchema,
  ErrorEnvelope: errorEnvelopeSchema,
  ConfirmationRequired: confirmationRequiredSchema,
  RunError: runErrorSchema,
  ConfirmDetail: confirmDetailSchema,
  Account: accountSchema,
  SearchAnswer: searchAnswerSchema,
  ReadinessHit: readinessHitSchema,
  GrantStatus: grantStatusSchema,
  RevokeAnswer: revokeAnswerSchema,
  WhoamiAnswer: whoamiAnswerSchema,
  PolicyAnswer: policyAnswerSchema,
  PolicyReview: policyReviewSchema,
  PolicyOperation: policyOperationSchema,
  RefusedApproval: refusedApprovalSchema,
  WhoamiAccount: whoamiAccountSchema,
  HttpErrorBody: httpErrorBodySchema,
  BodyIssue: bodyIssueSchema,
  HealthAnswer: healthAnswerSchema,
  ReadyAnswer: readyAnswerSchema,
  SubscribeAnswer: subscribeAnswerSchema,
  EventsAnswer: eventsAnswerSchema,
  DeliveredEvent: deliveredEventSchema,
};

type JsonObject = Record<string, unknown>;

function componentSchemas(schemas: Record<string, z.ZodType>, io: "input" | "output"): Record<string, JsonObject> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const generated = z.toJSONSchema(registry, {
    target: "draft-2020-12",
    io,
    unrepresentable: "any",
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, JsonObject> };
  const components: Record<string, JsonObject> = {};
  // Each component lives inside one document with one dialect: its own `$schema` and `$id` would re-root its refs.
  for (const [id, { $schema: _dialect, $id: _id, ...schema }] of Object.entries(generated.schemas)) components[id] = schema;
  return components;
}

function idOf(schemas: Record<string, z.ZodType>, schema: z.ZodType): string {
  const entry = Object.entries(schemas).find(([, candidate]) => candidate === schema);
  if (entry === undefined) throw new Error("every route's schema has a name in the description");
  return entry[0];
}

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const jsonContent = (schema: JsonObject) => ({ "application/json": { schema } });

const REFUSALS: Record<string, { status: string; description: string }> = {
  BadRequest: { status: "400", description: "`invalid_body` (with `issues`: each path and what is wrong), `invalid_json` or `bad_request`. Nothing ran." },
  Unauthorized: { status: "401", description: "`unauthorized`: no `Authorization: Bearer <caller token>`, or another token." },
  Forbidden: {
    status: "403",
    description:
      "`forbidden_host` or `forbidden_origin`: `Host` is not this sidecar's loopback address and port, or an `Origin` is (a web page cannot call the sidecar).",
  },
  TooLarge: { status: "413", description: "`body_too_large`: bodies are at most 256 KiB." },
  UnsupportedMediaType: { status: "415", description: "`unsupported_media_type`: bodies are JSON only." },
  ServerError: { status: "500", description: "`audit_unavailable` (the audit log could not be written, so nothing was answered or sent) or `internal_error`." },
};

function operation(route: SidecarRoute) {
  const refusals =
    route.body === undefined
      ? ["Unauthorized", "Forbidden", "ServerError"]
      : ["BadRequest", "Unauthorized", "Forbidden", "TooLarge", "UnsupportedMediaType", "ServerError"];
  const responses: JsonObject = {
    "200": {
      description:
        route.body === undefined
          ? "The answer."
          : "The route's answer: every well-formed, authorised call answers 200, refusals included (as envelopes with a `next_action`).",
      content: jsonContent(ref(idOf(ANSWER_SCHEMAS, route.answer))),
    },
  };
  for (const name of refusals) responses[REFUSALS[name]?.status ?? "default"] = { $ref: `#/components/responses/${name}` };
  return {
    operationId: route.name,
    summary: route.summary,
    ...(route.body === undefined ? {} : { requestBody: { required: true, content: jsonContent(ref(idOf(BODY_SCHEMAS, route.body))) } }),
    responses,
  };
}

/**
 * The sidecar's OpenAPI 3.1 description, made from the same zod schemas the
 * sidecar validates with and the client is typed by. The build writes it to
 * `dist/openapi.json`; the sidecar serves it at `GET /v1/openapi.json`.
 */
export function sidecarOpenApi(): JsonObject {
  const paths: JsonObject = {};
  for (const route of Object.values(SIDECAR_ROUTES)) paths[route.path] = { [route.method.toLowerCase()]: operation(route) };
  paths[OPENAPI_PATH] = {
    get: {
      operationId: "openapi",
      summary: "This description.",
      responses: {
        "200": { description: "The OpenAPI 3.1 description of the sidecar's routes.", content: jsonContent({ type: "object" }) },
        "401": { $ref: "#/components/responses/Unauthorized" },
        "403": { $ref: "#/components/responses/Forbidden" },
      },
    },
  };
  paths[PROBE_PATHS.health] = {
    get: {
      operationId: "health",
      summary: "Alive: the process answers (also on the metrics listener, without the caller token).",
      responses: {
        "200": { description: "Alive.", content: jsonContent(ref("HealthAnswer")) },
        "401": { $ref: "#/components/responses/Unauthorized" },
        "403": { $ref: "#/components/responses/Forbidden" },
      },
    },
  };
  paths[PROBE_PATHS.ready] = {
    get: {
      operationId: "ready",
      summary: "Ready: the registry is loaded, Redis (when configured) reachable, the last registry sync not older than three intervals.",
      responses: {
        "200": { description: "Ready.", content: jsonContent(ref("ReadyAnswer")) },
        "401": { $ref: "#/components/responses/Unauthorized" },
        "403": { $ref: "#/components/responses/Forbidden" },
        "503": { description: "Not ready, with each reason.", content: jsonContent(ref("ReadyAnswer")) },
      },
    },
  };
  const responses: JsonObject = {};
  for (const [name, { description }] of Object.entries(REFUSALS)) responses[name] = { description, content: jsonContent(ref("HttpErrorBody")) };
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: JSON_SCHEMA_DIALECT,
    info: {
      title: "Eleven integrations sidecar",
      version: PROTOCOL_VERSION,
      license: { name: "MIT", identifier: "MIT" },
      description:
        "The HTTP contract between a bot and its sidecar. The sidecar listens on a Unix socket, `$SIDECAR_HOME/sidecar.sock` (mode 0600; send `Host: localhost`), or on loopback TCP (`Host` must then name the address and port, such as `127.0.0.1:8787`). Every route needs `Authorization: Bearer <caller token>`, the token in `$SIDECAR_HOME/caller-token`. Bodies are JSON (at most 256 KiB), validated without type coercion, unknown keys refused.",
    },
    servers: [{ url: "http://localhost", description: "The sidecar's Unix socket, $SIDECAR_HOME/sidecar.sock (or http://127.0.0.1:PORT over loopback TCP)." }],
    security: [{ callerToken: [] }],
    paths,
    components: {
      securitySchemes: {
        callerToken: { type: "http", scheme: "bearer", description: "The caller token in `$SIDECAR_HOME/caller-token` (mode 0600): only the bot reads it." },
      },
      schemas: { ...componentSchemas(BODY_SCHEMAS, "input"), ...componentSchemas(ANSWER_SCHEMAS, "output") },
      responses,
    },
  };
}

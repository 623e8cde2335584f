export {
  opsBodySchema,
  runBodySchema,
  searchBodySchema,
  revokeBodySchema,
  whoamiBodySchema,
  policyBodySchema,
  MAX_POLICY_APPROVALS,
  wellFormedOp,
  OP_ID_PATTERN,
  MAX_OP_ID_LENGTH,
  MAX_SEARCH_GRANTS,
  MAX_SEARCH_TEXT,
  type OpsBody,
  type RunBody,
  type SearchBody,
  type RevokeBody,
  type WhoamiBody,
  type PolicyBody,
} from "./body-schemas.js";
export {
  policyAnswerSchema,
  policyReviewSchema,
  policyOperationSchema,
  refusedApprovalSchema,
  type PolicyAnswer,
  type PolicyReview,
  type PolicyOperation,
  type RefusedApproval,
} from "./policy-schema.js";
export { parseBody, type BodyResult } from "./parse-body.js";
export { isWellFormedRunBody, parseRunBody } from "./run-body-check.js";
export {
  httpErrorBodySchema,
  httpErrorCodeSchema,
  bodyIssueSchema,
  httpErrorBody,
  type HttpErrorBody,
  type HttpErrorCode,
  type BodyIssue,
} from "./http-error-schema.js";
export {
  runAnswerSchema,
  okEnvelopeSchema,
  errorEnvelopeSchema,
  confirmationRequiredSchema,
  runErrorSchema,
  runErrorCodeSchema,
  confirmDetailSchema,
  accountSchema,
  EXECUTOR_ERROR_CODES,
  REFUSAL_CODES,
  type RunAnswer,
  type OkEnvelope,
  type ErrorEnvelope,
  type ConfirmationRequired,
  type RunError,
  type RunErrorCode,
  type ConfirmDetail,
  type ConfirmDetailFlag,
  type ProviderDetails,
  type Account,
} from "./envelope-schemas.js";
export {
  opsAnswerSchema,
  paletteSchema,
  paletteOperationSchema,
  paletteRefusalSchema,
  type OpsAnswer,
  type Palette,
  type PaletteOperation,
  type PaletteRefusal,
  type PaletteArg,
} from "./palette-schema.js";
export {
  searchAnswerSchema,
  readinessHitSchema,
  grantStatusSchema,
  readinessSchema,
  type SearchAnswer,
  type ReadinessHit,
  type GrantStatus,
  type Readiness,
} from "./search-schema.js";
export { identityAnswerSchema, registryInfoSchema, type IdentityAnswer, type RegistryInfo } from "./identity-schema.js";
export { revokeAnswerSchema, type RevokeAnswer } from "./revoke-schema.js";
export {
  subscribeBodySchema,
  eventsBodySchema,
  subscribeAnswerSchema,
  eventsAnswerSchema,
  deliveredEventSchema,
  SUBSCRIPTION_REFUSAL_CODES,
  MAX_EVENTS_WAIT_MS,
  MAX_EVENTS_CURSOR_LENGTH,
  MAX_EVENTS_PER_ANSWER,
  type SubscribeBody,
  type EventsBody,
  type SubscribeAnswer,
  type EventsAnswer,
  type DeliveredEvent,
} from "./events-schema.js";
export { whoamiAnswerSchema, whoamiAccountSchema, type WhoamiAnswer, type WhoamiAccount } from "./whoami-schema.js";
export { SIDECAR_ROUTES, OPENAPI_PATH, type SidecarRoute } from "./routes.js";
export { PROBE_PATHS, healthAnswerSchema, readyAnswerSchema, type HealthAnswer, type ReadyAnswer } from "./probe-schema.js";
export { sidecarOpenApi, PROTOCOL_VERSION } from "./openapi.js";
export {
  SIDECAR_HOME_FILES,
  DEFAULT_SIDECAR_HOME_NAME,
  sidecarHome,
  sidecarHomePaths,
  readCallerToken,
  type SidecarHomeFile,
  type SidecarHomePaths,
} from "./home-folder.js";
export { checkSidecarTarget, parseSidecarTarget, type SidecarTarget } from "./sidecar-target.js";
export { createSidecarClient, DEFAULT_TIMEOUT_MS, DEFAULT_MAX_ANSWER_BYTES, type SidecarClient, type SidecarClientOptions } from "./sidecar-client.js";
export { SidecarClientError, type SidecarClientErrorCode } from "./sidecar-client-error.js";

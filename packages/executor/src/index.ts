export { createExecutor, type Executor, type ExecutorOptions, type RunRequest } from "./create-executor.js";
export type { Envelope, OkEnvelope, ErrorEnvelope, EnvelopeError, ErrorCode, ProviderDetails } from "./envelope.js";
export { MAX_PAGE_TOKEN_LENGTH } from "./page-token.js";
export { MAX_PROVIDER_TEXT } from "./clean-provider-text.js";
export { DEFAULT_LIMITS, type ExecutorLimits } from "./limits.js";
export { createHardenedDispatcher, type HardenedDispatcherOptions } from "./hardened-dispatcher.js";
export { isPublicAddress } from "./is-public-address.js";
export { AddressRefusedError } from "./address-refused-error.js";
export { serializeEnvelope } from "./fit-result.js";
export { accountFromIdentity, IdentityError, MAX_ACCOUNT_TEXT, type Account, type AccountResult, type IdentityErrorCode } from "./account.js";
export { checkNextPath, type NextPathResult } from "./next-path.js";
// The loader's tenant resolution, for callers that hold the executor alone (the sidecar, the broker).
export {
  resolveBase,
  resolveTenantUrl,
  type ResolveBaseResult,
  type ResolvedBase,
  type FillTenantUrlResult,
  type TenantProblem,
} from "@eleven-integrations/loader";
export { buildMessage, type BuildMessageResult } from "./build-message.js";
export { pathArgProblem } from "./path-arg.js";
export type { ArgValues } from "./check-args.js";
export { fileBytesOf, type FileResult } from "./file-result.js";

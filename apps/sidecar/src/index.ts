export { buildApp, MAX_BODY_BYTES } from "./app.js";
export type { SidecarConfig, SidecarLoggerOption, ExecutorLimits } from "./config/config.js";
export { startSidecar, SIDECAR_HOST, DEFAULT_PORT, type StartSidecarOptions, type RunningSidecar, type RunningTcpSidecar } from "./start/start-server.js";
export { SOCKET_FILE_NAME } from "./start/unix-socket.js";
export { sidecarFiles, defaultSidecarHome, type SidecarFiles } from "./start/sidecar-files.js";
export { SidecarStartError, type SidecarStartErrorCode } from "./start/start-error.js";
export type { RunAnswer, RefusalEnvelope, RefusalCode, ConfirmationRequired, OpsAnswer, Palette, PaletteOperation } from "./run/answers.js";
export { AuditLog, type AuditRecord, type AuditLogOptions, type ChainedAuditRecord, type RepairRecord, type CheckpointMismatch } from "./audit/audit-log.js";
export { GENESIS_PREV, lineHash as auditLineHash } from "./audit/audit-chain.js";
export { AuditCheckpoints, checkpointFileFor, type JournalHead } from "./audit/audit-checkpoints.js";
export type { HttpErrorBody, HttpErrorCode, BodyIssue } from "./http/http-error.js";
export {
  DEFAULT_RATE_LIMITS,
  StateUnavailableError,
  type RateLimit,
  type RateLimits,
  type SharedState,
  type RateDecision,
  type Strictness,
} from "./state/shared-state.js";
export { LocalState, type LocalStateOptions } from "./state/local-state.js";
export { RedisState, redisKeyPrefix, type RedisStateOptions } from "./state/redis-state.js";
export type { RevokeAnswer } from "./state/revoke.js";
export { sidecarEnvironmentSchema, type SidecarEnvironment } from "./config/environment-schema.js";
export type { ServerTimeouts } from "@eleven-integrations/server-kit";

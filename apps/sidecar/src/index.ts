export { buildApp, MAX_BODY_BYTES } from "./app.js";
export type { SidecarConfig, SidecarLoggerOption, ExecutorLimits } from "./config.js";
export { startSidecar, SIDECAR_HOST, DEFAULT_PORT, type StartSidecarOptions, type RunningSidecar } from "./server-start.js";
export { sidecarFiles, defaultSidecarHome, type SidecarFiles } from "./sidecar-files.js";
export { SidecarStartError, type SidecarStartErrorCode } from "./sidecar-error.js";
export type { RunAnswer, RefusalEnvelope, RefusalCode, ConfirmationRequired, OpsAnswer, Palette, PaletteOperation } from "./answers.js";
export type { AuditRecord } from "./audit-log.js";
export type { HttpErrorBody, HttpErrorCode, BodyIssue } from "./http-error.js";

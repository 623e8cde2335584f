export { buildApp } from "./app.js";
export {
  BrokerConfigError,
  validateBrokerSettings,
  brokerSettingsSchema,
  type BrokerConfig,
  type BrokerSettings,
  type OAuthApp,
  type ConfigIssue,
  type ConfigResult,
} from "./config.js";
export { loadServerConfig, DEVELOPMENT_PUBLIC_URL, type ServerConfig, type LoadServerConfigOptions } from "./environment-config.js";
export { startServer, startupFailure } from "./run-server.js";
export { BrokerError, BROKER_ERROR_STATUS, type BrokerErrorCode } from "./broker-error.js";
export type { BrokerLoggerOption } from "./logging.js";
export type { ServedCatalog, ServedCatalogEntry } from "./catalog.js";
export type { TokenBundle } from "./token-bundle.js";
export { STATE_TTL_SECONDS } from "./oauth-state.js";
export type { BrokerContext } from "./broker-context.js";
export { brokerEnvironmentSchema, type BrokerEnvironment } from "./environment-schema.js";
export { brokerFileSchema } from "./environment-config.js";
export { createMemoryRefreshLimiter, refreshTokenKey, type RefreshLimiter, type RefreshLimits, type RefreshDecision } from "./refresh-limiter.js";
export { BINDING_COOKIE } from "./browser-binding.js";
export type { ServerTimeouts } from "./server-timeouts.js";
export { authorizationErrorCode, type CallbackErrorCode } from "./connect-callback.js";

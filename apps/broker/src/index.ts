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
} from "./config/config.js";
export { loadServerConfig, DEVELOPMENT_PUBLIC_URL, type ServerConfig, type LoadServerConfigOptions } from "./config/environment-config.js";
export { startServer, startupFailure } from "./server/run-server.js";
export { BrokerError, BROKER_ERROR_STATUS, type BrokerErrorCode } from "./server/broker-error.js";
export type { BrokerLoggerOption } from "./server/logging.js";
export type { ServedCatalog, ServedCatalogEntry } from "./catalog/catalog.js";
export type { TokenBundle } from "./connect/token-bundle.js";
export { STATE_TTL_SECONDS } from "./connect/oauth-state.js";
export type { BrokerContext } from "./server/broker-context.js";
export { brokerEnvironmentSchema, type BrokerEnvironment } from "./config/environment-schema.js";
export { brokerFileSchema } from "./config/environment-config.js";
export { createMemoryRefreshLimiter, refreshTokenKey, type RefreshLimiter, type RefreshLimits, type RefreshDecision } from "./connect/refresh-limiter.js";
export { BINDING_COOKIE } from "./connect/browser-binding.js";
export type { ServerTimeouts } from "./server/server-timeouts.js";
export { authorizationErrorCode, type CallbackErrorCode } from "./connect/connect-callback.js";

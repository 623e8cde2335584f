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
export { loadServerConfig, DEVELOPMENT_PUBLIC_URL, type ServerConfig, type LoadServerConfigOptions } from "./config/server-config.js";
export { startBroker, startupFailure } from "./start/start-server.js";
export { BrokerError, BROKER_ERROR_STATUS, type BrokerErrorCode } from "./http/broker-error.js";
export type { BrokerLoggerOption } from "./http/logging.js";
export type { ServedCatalog, ServedCatalogEntry } from "./catalog/catalog.js";
export type { TokenBundle } from "./connect/token-bundle.js";
export { STATE_TTL_SECONDS } from "./connect/oauth-state.js";
export type { BrokerContext } from "./broker-context.js";
export { brokerEnvironmentSchema, type BrokerEnvironment } from "./config/environment-schema.js";
export { brokerFileSchema } from "./config/server-config.js";
export { createMemoryRefreshLimiter, refreshTokenKey, type RefreshLimiter, type RefreshLimits, type RefreshDecision } from "./state/refresh-limiter.js";
export { BINDING_COOKIE } from "./connect/browser-binding.js";
export type { ServerTimeouts } from "@eleven-integrations/server-kit";
export { authorizationErrorCode, type CallbackErrorCode } from "./connect/connect-callback.js";

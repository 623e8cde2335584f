export { verifyWebhook, type VerifyWebhookInput } from "./verify-webhook.js";
export { WEBHOOK_DIALECTS, isWebhookDialect, describeDialect, type WebhookDialect } from "./dialects/index.js";
export { WEBHOOK_REFUSALS, type VerifyWebhookResult, type WebhookAccepted, type WebhookRefused, type WebhookRefusal } from "./verify-result.js";
export type { WebhookHeaders } from "./header-bag.js";
export { MAX_WEBHOOK_BODY_BYTES } from "./limits.js";
export {
  signStandardWebhook,
  verifyStandardWebhook,
  generateStandardWebhookSecret,
  StandardWebhookError,
  type SignStandardWebhookInput,
  type StandardWebhookHeaders,
  type VerifyStandardWebhookInput,
} from "./standard-webhook-signing.js";
export {
  webhookEvent,
  polledEvent,
  polledItemKey,
  matchesSubscriptionArgs,
  type BuiltEvent,
  type WebhookEvent,
  type EventRefusal,
  type BuildEventResult,
  type WebhookEventInput,
  type PolledEventInput,
} from "./build-event.js";

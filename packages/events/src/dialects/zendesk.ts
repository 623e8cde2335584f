import { anyBase64Matches } from "../constant-time.js";
import { FIVE_MINUTES } from "../limits.js";
import { accept, refuse } from "../verify-result.js";
import { type Dialect, isFresh, isRefusal, optionalHeader, requiredHeader } from "./dialect.js";

/**
 * Zendesk: `X-Zendesk-Webhook-Signature: <base64 HMAC-SHA256 of timestamp + raw body>` where the
 * timestamp is `X-Zendesk-Webhook-Signature-Timestamp` (ISO 8601) as sent; the delivery id is
 * `X-Zendesk-Webhook-Invocation-Id`. Zendesk documents no tolerance: five minutes, as Slack's.
 */
export const zendesk: Dialect = {
  header: "X-Zendesk-Webhook-Signature",
  documentation: "https://developer.zendesk.com/documentation/webhooks/verifying/",
  verify({ keys, headers, body, now }) {
    const signature = requiredHeader(headers, "X-Zendesk-Webhook-Signature", "missing_signature");
    if (isRefusal(signature)) return signature;
    const stamp = requiredHeader(headers, "X-Zendesk-Webhook-Signature-Timestamp", "malformed");
    if (isRefusal(stamp)) return stamp;
    const milliseconds = Date.parse(stamp);
    if (!/^\d{4}-\d{2}-\d{2}T/.test(stamp) || Number.isNaN(milliseconds)) return refuse("malformed");
    if (!anyBase64Matches("sha256", keys, [signature], [stamp, body])) return refuse("bad_signature");
    const timestamp = Math.floor(milliseconds / 1000);
    if (!isFresh(timestamp, now, FIVE_MINUTES)) return refuse("stale");
    return accept(optionalHeader(headers, "X-Zendesk-Webhook-Invocation-Id"), timestamp);
  },
};

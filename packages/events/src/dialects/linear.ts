import { anyHexMatches } from "../constant-time.js";
import { accept, refuse } from "../verify-result.js";
import { type Dialect, isFresh, isRefusal, jsonObject, optionalHeader, requiredHeader } from "./dialect.js";

const ONE_MINUTE = 60;

/**
 * Linear: `Linear-Signature: <hex HMAC-SHA256 of the raw body>` under the webhook's signing
 * secret; the body's `webhookTimestamp` (Unix milliseconds) must be within a minute of now;
 * the delivery id is `Linear-Delivery`.
 */
export const linear: Dialect = {
  header: "Linear-Signature",
  documentation: "https://linear.app/developers/webhooks#securing-webhooks",
  verify({ keys, headers, body, now }) {
    const signature = requiredHeader(headers, "Linear-Signature", "missing_signature");
    if (isRefusal(signature)) return signature;
    if (!anyHexMatches("sha256", keys, [signature], [body])) return refuse("bad_signature");
    const payload = jsonObject(body);
    const milliseconds = payload?.["webhookTimestamp"];
    if (typeof milliseconds !== "number" || !Number.isSafeInteger(milliseconds) || milliseconds < 0) return refuse("malformed");
    const timestamp = Math.floor(milliseconds / 1000);
    if (!isFresh(milliseconds / 1000, now, ONE_MINUTE)) return refuse("stale");
    return accept(optionalHeader(headers, "Linear-Delivery"), timestamp);
  },
};

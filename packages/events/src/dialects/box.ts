import { anyBase64Matches } from "../constant-time.js";
import { accept, refuse } from "../verify-result.js";
import { type Dialect, isFresh, isRefusal, optionalHeader, requiredHeader } from "./dialect.js";

const TEN_MINUTES = 10 * 60;

/**
 * Box (webhooks v2): `box-signature-primary` is the base64 HMAC-SHA256 of the raw body followed
 * by `box-delivery-timestamp` under the primary key, `box-signature-secondary` the same under the
 * secondary key; either passing is enough (the two keys let one rotate). `box-signature-version`
 * is 1 and `box-signature-algorithm` HmacSHA256; a delivery older (or newer) than ten minutes is
 * refused. `secret` is `[primary, secondary]` (or the primary alone). No delivery id is answered:
 * Box changes `box-delivery-id` on every retry, so the dedup key is the body's `id` (the manifest says so).
 */
export const box: Dialect = {
  header: "box-signature-primary",
  documentation: "https://developer.box.com/guides/webhooks/v2/signatures-v2/",
  verify({ keys, headers, body, now }) {
    const primary = optionalHeader(headers, "box-signature-primary");
    const secondary = optionalHeader(headers, "box-signature-secondary");
    if (primary === undefined && secondary === undefined) {
      const duplicate = requiredHeader(headers, "box-signature-primary", "missing_signature");
      return isRefusal(duplicate) ? duplicate : refuse("missing_signature");
    }
    const version = requiredHeader(headers, "box-signature-version", "malformed");
    if (isRefusal(version)) return version;
    const algorithm = requiredHeader(headers, "box-signature-algorithm", "malformed");
    if (isRefusal(algorithm)) return algorithm;
    if (version !== "1" || algorithm !== "HmacSHA256") return refuse("malformed");
    const stamp = requiredHeader(headers, "box-delivery-timestamp", "malformed");
    if (isRefusal(stamp)) return stamp;
    const milliseconds = Date.parse(stamp);
    if (!/^\d{4}-\d{2}-\d{2}T/.test(stamp) || Number.isNaN(milliseconds)) return refuse("malformed");
    const [primaryKey, secondaryKey] = keys;
    const primaryOk = primary !== undefined && primaryKey !== undefined && anyBase64Matches("sha256", [primaryKey], [primary], [body, stamp]);
    const secondaryOk = secondary !== undefined && secondaryKey !== undefined && anyBase64Matches("sha256", [secondaryKey], [secondary], [body, stamp]);
    if (!primaryOk && !secondaryOk) return refuse("bad_signature");
    const timestamp = Math.floor(milliseconds / 1000);
    if (!isFresh(timestamp, now, TEN_MINUTES)) return refuse("stale");
    return accept(undefined, timestamp);
  },
};

import { anyBase64Matches } from "../constant-time.js";
import { FIVE_MINUTES } from "../limits.js";
import { accept, refuse } from "../verify-result.js";
import { type Dialect, isFresh, isRefusal, requiredHeader, unixSeconds } from "./dialect.js";

const WHSEC = "whsec_";
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** A `whsec_<base64>` secret's key bytes (the prefix is optional, as in the reference libraries), or null. */
export function standardWebhookKey(secret: string): Buffer | null {
  const encoded = secret.startsWith(WHSEC) ? secret.slice(WHSEC.length) : secret;
  if (!BASE64.test(encoded) || encoded.length % 4 !== 0) return null;
  const key = Buffer.from(encoded, "base64");
  return key.length > 0 ? key : null;
}

/**
 * Standard Webhooks: `webhook-signature` is a space-delimited list of `v1,<base64 HMAC-SHA256>`
 * of `"<webhook-id>.<webhook-timestamp>.<raw body>"` under the base64-decoded `whsec_` secret;
 * any one valid `v1` passes (rotation), `v1a` (asymmetric) is not accepted here; the timestamp
 * must be within five minutes; `webhook-id` is the idempotency key.
 */
export const standardWebhooks: Dialect = {
  header: "webhook-signature",
  documentation: "https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md",
  verify({ keys, headers, body, now }) {
    const header = requiredHeader(headers, "webhook-signature", "missing_signature");
    if (isRefusal(header)) return header;
    const id = requiredHeader(headers, "webhook-id", "malformed");
    if (isRefusal(id)) return id;
    const stamp = requiredHeader(headers, "webhook-timestamp", "malformed");
    if (isRefusal(stamp)) return stamp;
    const timestamp = unixSeconds(stamp);
    if (timestamp === null || id.includes(".")) return refuse("malformed");
    const signatures = header
      .split(" ")
      .filter((part) => part.startsWith("v1,"))
      .map((part) => part.slice(3));
    if (signatures.length === 0) return refuse("missing_signature");
    const keyBytes = keys.map(standardWebhookKey).filter((key): key is Buffer => key !== null);
    if (keyBytes.length === 0) return refuse("no_secret");
    if (!anyBase64Matches("sha256", keyBytes, signatures, [`${id}.${stamp}.`, body])) return refuse("bad_signature");
    if (!isFresh(timestamp, now, FIVE_MINUTES)) return refuse("stale");
    return accept(id, timestamp);
  },
};

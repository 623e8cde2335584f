import { anyHexMatches } from "../constant-time.js";
import { accept, refuse } from "../verify-result.js";
import { type Dialect, isRefusal, requiredHeader } from "./dialect.js";

/**
 * Asana: after the `X-Hook-Secret` handshake (the caller's: it echoes the header once and keeps
 * the value as this webhook's secret), every event post carries `X-Hook-Signature: <hex
 * HMAC-SHA256 of the raw body>` under that secret. No timestamp is signed.
 */
export const asana: Dialect = {
  header: "X-Hook-Signature",
  documentation: "https://developers.asana.com/docs/webhooks-guide#security",
  verify({ keys, headers, body }) {
    const signature = requiredHeader(headers, "X-Hook-Signature", "missing_signature");
    if (isRefusal(signature)) return signature;
    if (!anyHexMatches("sha256", keys, [signature], [body])) return refuse("bad_signature");
    return accept(undefined, undefined);
  },
};

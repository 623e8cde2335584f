import { createHash } from "node:crypto";
import { anyBase64Matches, sameText } from "../constant-time.js";
import { accept, refuse } from "../verify-result.js";
import { type Dialect, isRefusal, optionalHeader, requiredHeader } from "./dialect.js";

/**
 * Twilio: `X-Twilio-Signature: <base64 HMAC-SHA1>` under the account's auth token, over the full
 * URL Twilio requested followed, for a form post, by every POST parameter sorted by name (then
 * value), each name and value appended with no delimiter. A JSON post instead carries
 * `bodySHA256=<hex SHA-256 of the body>` in the URL, which is then all that is signed.
 * The caller gives `url` exactly as Twilio called it (scheme, host, port, path, query).
 */
export const twilio: Dialect = {
  header: "X-Twilio-Signature",
  documentation: "https://www.twilio.com/docs/usage/security#validating-requests",
  verify({ keys, headers, body, url }) {
    const signature = requiredHeader(headers, "X-Twilio-Signature", "missing_signature");
    if (isRefusal(signature)) return signature;
    if (url === undefined || !URL.canParse(url)) return refuse("malformed");
    const bodyDigest = new URL(url).searchParams.get("bodySHA256");
    if (bodyDigest !== null) {
      if (!anyBase64Matches("sha1", keys, [signature], [url])) return refuse("bad_signature");
      if (!sameText(createHash("sha256").update(body).digest("hex"), bodyDigest.toLowerCase())) return refuse("bad_signature");
      return accept(optionalHeader(headers, "I-Twilio-Idempotency-Token"), undefined);
    }
    let form: URLSearchParams;
    try {
      form = new URLSearchParams(new TextDecoder("utf-8", { fatal: true }).decode(body));
    } catch {
      return refuse("malformed");
    }
    const pairs = [...form.entries()].sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
    let signed = url;
    for (const [name, value] of pairs) signed += name + value;
    if (!anyBase64Matches("sha1", keys, [signature], [signed])) return refuse("bad_signature");
    return accept(optionalHeader(headers, "I-Twilio-Idempotency-Token"), undefined);
  },
};

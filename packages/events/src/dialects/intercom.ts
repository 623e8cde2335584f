import { anyHexMatches } from "../constant-time.js";
import { accept, refuse } from "../verify-result.js";
import { type Dialect, isRefusal, requiredHeader } from "./dialect.js";

/**
 * Intercom: `X-Hub-Signature: sha1=<hex HMAC-SHA1 of the raw body>` under the app's
 * client secret. Intercom signs no timestamp; the notification's `id` is in the body.
 */
export const intercom: Dialect = {
  header: "X-Hub-Signature",
  documentation: "https://developers.intercom.com/docs/references/webhooks/webhook-models#signed-notifications",
  verify({ keys, headers, body }) {
    const header = requiredHeader(headers, "X-Hub-Signature", "missing_signature");
    if (isRefusal(header)) return header;
    if (!header.startsWith("sha1=")) return refuse("bad_signature");
    if (!anyHexMatches("sha1", keys, [header.slice(5)], [body])) return refuse("bad_signature");
    return accept(undefined, undefined);
  },
};

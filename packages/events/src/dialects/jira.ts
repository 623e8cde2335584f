import { anyHexMatches } from "../constant-time.js";
import { accept, refuse } from "../verify-result.js";
import { type Dialect, isRefusal, optionalHeader, requiredHeader } from "./dialect.js";

/**
 * Jira Cloud webhooks with a secret: `X-Hub-Signature: sha256=<hex HMAC-SHA256 of the raw body>`
 * (WebSub's `method=signature` form); `X-Atlassian-Webhook-Identifier` is the delivery id,
 * the same across retries. No timestamp is signed. Only admin webhooks registered with a secret are
 * signed this way; the dynamic webhooks an OAuth app registers carry a JWT instead, which this
 * dialect does not accept (no "accept unverified": such deliveries are refused).
 */
export const jira: Dialect = {
  header: "X-Hub-Signature",
  documentation: "https://developer.atlassian.com/cloud/jira/platform/webhooks/#secure-admin-webhooks",
  verify({ keys, headers, body }) {
    const header = requiredHeader(headers, "X-Hub-Signature", "missing_signature");
    if (isRefusal(header)) return header;
    if (!header.startsWith("sha256=")) return refuse("bad_signature");
    if (!anyHexMatches("sha256", keys, [header.slice(7)], [body])) return refuse("bad_signature");
    return accept(optionalHeader(headers, "X-Atlassian-Webhook-Identifier"), undefined);
  },
};

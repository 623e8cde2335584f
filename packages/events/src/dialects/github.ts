import { anyHexMatches } from "../constant-time.js";
import { accept, refuse } from "../verify-result.js";
import { type Dialect, isRefusal, optionalHeader, requiredHeader } from "./dialect.js";

/**
 * GitHub: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>` under the webhook
 * secret; the delivery id is `X-GitHub-Delivery`. GitHub signs no timestamp.
 */
export const github: Dialect = {
  header: "X-Hub-Signature-256",
  documentation: "https://docs.github.com/en/webhooks/using-webhooks/validating-webhook-deliveries",
  verify({ keys, headers, body }) {
    const header = requiredHeader(headers, "X-Hub-Signature-256", "missing_signature");
    if (isRefusal(header)) return header;
    if (!header.startsWith("sha256=")) return refuse("bad_signature");
    if (!anyHexMatches("sha256", keys, [header.slice("sha256=".length)], [body])) return refuse("bad_signature");
    return accept(optionalHeader(headers, "X-GitHub-Delivery"), undefined);
  },
};

import { anyHexMatches } from "../constant-time.js";
import { accept, refuse } from "../verify-result.js";
import { type Dialect, isRefusal, requiredHeader } from "./dialect.js";

/**
 * PagerDuty (V3 webhooks): `X-PagerDuty-Signature: v1=<hex>[,v1=<hex>...]`, each the hex
 * HMAC-SHA256 of the raw body under the subscription's secret; any one match passes (several
 * are sent while a secret rotates). PagerDuty signs no timestamp.
 */
export const pagerduty: Dialect = {
  header: "X-PagerDuty-Signature",
  documentation: "https://github.com/PagerDuty/developer-docs/blob/main/docs/webhooks/04-Signatures.md",
  verify({ keys, headers, body }) {
    const header = requiredHeader(headers, "X-PagerDuty-Signature", "missing_signature");
    if (isRefusal(header)) return header;
    const signatures = header
      .split(",")
      .map((part) => part.trim())
      .filter((part) => part.startsWith("v1="))
      .map((part) => part.slice(3));
    if (signatures.length === 0) return refuse("missing_signature");
    if (!anyHexMatches("sha256", keys, signatures, [body])) return refuse("bad_signature");
    return accept(undefined, undefined);
  },
};

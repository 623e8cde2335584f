import { anyHexMatches } from "../constant-time.js";
import { accept, refuse } from "../verify-result.js";
import { type Dialect, isRefusal, optionalHeader, requiredHeader } from "./dialect.js";

/**
 * Sentry (integration platform): `Sentry-Hook-Signature: <hex HMAC-SHA256 of the body>` under
 * the integration's client secret; `Request-ID` is the delivery id. The signature covers no
 * timestamp (`Sentry-Hook-Timestamp` is unsigned, so it is not trusted for freshness).
 */
export const sentry: Dialect = {
  header: "Sentry-Hook-Signature",
  documentation: "https://docs.sentry.io/integrations/integration-platform/webhooks/#sentry-hook-signature",
  verify({ keys, headers, body }) {
    const signature = requiredHeader(headers, "Sentry-Hook-Signature", "missing_signature");
    if (isRefusal(signature)) return signature;
    if (!anyHexMatches("sha256", keys, [signature], [body])) return refuse("bad_signature");
    return accept(optionalHeader(headers, "Request-ID"), undefined);
  },
};

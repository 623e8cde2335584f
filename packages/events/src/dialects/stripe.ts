import { anyHexMatches } from "../constant-time.js";
import { FIVE_MINUTES } from "../limits.js";
import { accept, refuse } from "../verify-result.js";
import { type Dialect, isFresh, isRefusal, requiredHeader, unixSeconds } from "./dialect.js";

/**
 * Stripe: `Stripe-Signature: t=<unix>,v1=<hex>[,v1=<hex>...][,v0=...]`; each `v1` is the hex
 * HMAC-SHA256 of `"<t>.<raw body>"` under the endpoint secret (several during a secret roll);
 * other schemes are ignored; the default tolerance is five minutes.
 */
export const stripe: Dialect = {
  header: "Stripe-Signature",
  documentation: "https://docs.stripe.com/webhooks#verify-manually",
  verify({ keys, headers, body, now }) {
    const header = requiredHeader(headers, "Stripe-Signature", "missing_signature");
    if (isRefusal(header)) return header;
    let stamp: string | undefined;
    const signatures: string[] = [];
    for (const element of header.split(",")) {
      const equals = element.indexOf("=");
      if (equals <= 0) return refuse("malformed");
      const key = element.slice(0, equals).trim();
      const value = element.slice(equals + 1).trim();
      if (key === "t") {
        if (stamp !== undefined) return refuse("malformed");
        stamp = value;
      } else if (key === "v1") signatures.push(value);
    }
    if (signatures.length === 0) return refuse("missing_signature");
    if (stamp === undefined) return refuse("malformed");
    const timestamp = unixSeconds(stamp);
    if (timestamp === null) return refuse("malformed");
    if (!anyHexMatches("sha256", keys, signatures, [`${stamp}.`, body])) return refuse("bad_signature");
    if (!isFresh(timestamp, now, FIVE_MINUTES)) return refuse("stale");
    return accept(undefined, timestamp);
  },
};

import { anyHexMatches } from "../constant-time.js";
import { FIVE_MINUTES } from "../limits.js";
import { accept, refuse } from "../verify-result.js";
import { type Dialect, isFresh, isRefusal, requiredHeader, unixSeconds } from "./dialect.js";

/**
 * Slack: `X-Slack-Signature: v0=<hex HMAC-SHA256 of "v0:<X-Slack-Request-Timestamp>:<raw body>">`
 * under the app's signing secret; a timestamp more than five minutes away is refused.
 */
export const slack: Dialect = {
  header: "X-Slack-Signature",
  documentation: "https://api.slack.com/authentication/verifying-requests-from-slack",
  verify({ keys, headers, body, now }) {
    const signature = requiredHeader(headers, "X-Slack-Signature", "missing_signature");
    if (isRefusal(signature)) return signature;
    const stamp = requiredHeader(headers, "X-Slack-Request-Timestamp", "malformed");
    if (isRefusal(stamp)) return stamp;
    const timestamp = unixSeconds(stamp);
    if (timestamp === null) return refuse("malformed");
    if (!signature.startsWith("v0=")) return refuse("bad_signature");
    if (!anyHexMatches("sha256", keys, [signature.slice(3)], [`v0:${stamp}:`, body])) return refuse("bad_signature");
    if (!isFresh(timestamp, now, FIVE_MINUTES)) return refuse("stale");
    return accept(undefined, timestamp);
  },
};

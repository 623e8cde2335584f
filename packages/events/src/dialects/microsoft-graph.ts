import { sameText } from "../constant-time.js";
import { accept, refuse } from "../verify-result.js";
import { type Dialect, jsonObject } from "./dialect.js";

/**
 * Microsoft Graph change notifications: every notification in the body's `value` carries the
 * `clientState` the subscription was created with; each must equal the secret (constant time).
 * Graph signs nothing else on a basic notification; the `validationToken` handshake is the
 * caller's (it is a GET/POST with a query parameter and no body to verify).
 */
export const microsoftGraph: Dialect = {
  header: "clientState (in the body)",
  documentation: "https://learn.microsoft.com/en-us/graph/change-notifications-delivery-webhooks#receive-notifications",
  verify({ keys, body }) {
    const payload = jsonObject(body);
    const value = payload?.["value"];
    if (!Array.isArray(value) || value.length === 0) return refuse("malformed");
    for (const notification of value as unknown[]) {
      if (typeof notification !== "object" || notification === null) return refuse("malformed");
      const clientState = (notification as Record<string, unknown>)["clientState"];
      if (clientState === undefined || clientState === null) return refuse("missing_signature");
      if (typeof clientState !== "string") return refuse("malformed");
      let matched = false;
      for (const key of keys) if (sameText(key, clientState)) matched = true;
      if (!matched) return refuse("bad_signature");
    }
    return accept(undefined, undefined);
  },
};

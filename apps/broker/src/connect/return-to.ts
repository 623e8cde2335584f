import { BrokerError } from "../http/broker-error.js";

/** `return_to` exactly as configured (no normalisation, no prefix match), or a 400. */
export function checkReturnTo(value: string | undefined, allowed: ReadonlySet<string>): string {
  if (value === undefined || !allowed.has(value)) {
    throw new BrokerError("return_to_not_allowed", "return_to must equal one of the broker's allowed return addresses exactly");
  }
  return value;
}

/** The address the member's browser is sent back to, the result in the fragment so no server on the way sees it. */
export function returnAddress(returnTo: string, name: "tokens" | "error", value: string): string {
  return `${returnTo}#${name}=${encodeURIComponent(value)}`;
}

/** The web origins among the allowed addresses (custom app schemes have none). */
export function webOrigins(allowed: readonly string[]): Set<string> {
  const origins = new Set<string>();
  for (const value of allowed) {
    const url = new URL(value);
    if (url.protocol === "https:" || url.protocol === "http:") origins.add(url.origin);
  }
  return origins;
}

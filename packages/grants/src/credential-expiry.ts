import type { Grant } from "./grant-payload.js";
import { unixNow } from "./limits.js";

/**
 * True when the grant's credential carries `expires_at` and `now` has reached
 * it: the sidecar answers `unauthorized` (reconnect) and sends nothing. No clock
 * skew is granted: the provider's clock decides, and a token sent at its last
 * second would fail there anyway. A credential without `expires_at` never
 * counts as expired here (the provider says so with a 401).
 */
export function credentialExpired(grant: Pick<Grant, "cred">, now: number = unixNow()): boolean {
  const expiresAt = grant.cred.expires_at;
  return expiresAt !== undefined && now >= expiresAt;
}

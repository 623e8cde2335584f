/** How one connect ended: sealed (with or without an account), or the code the member was sent back with. */
export interface ConnectEvent {
  integration: string;
  outcome: { ok: true; identified: boolean } | { ok: false; code: "access_denied" | "token_exchange_failed" | "provider_unavailable" | "invalid_callback" };
}

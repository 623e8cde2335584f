// What the broker vouches for in a bundle (src/connect/token-proof.ts), for tests that
// refresh or revoke like a member client holding the bundle the broker sealed.
import { refreshBinding, revokeProof } from "../connect/token-proof.js";

/** A bundle as the member client opened it, without the broker's proofs: what the provider's answer put in it. */
export function withoutProofs<T extends Record<string, unknown>>(bundle: T): Omit<T, "refresh_binding" | "revoke_proof"> {
  const { refresh_binding: _binding, revoke_proof: _proof, ...rest } = bundle;
  return rest;
}

/** The `refresh_binding` the broker sealed into a bundle of `refreshToken` for `clientKey`. */
export function bindingFor(stateKey: string, integration: string, refreshToken: string, clientKey: string): string {
  return refreshBinding(stateKey, { integration, refreshToken, clientKey });
}

/** The `revoke_proof` the broker sealed into a bundle of `accessToken` (and, for Stripe, the connected `account`). */
export function proofFor(stateKey: string, integration: string, accessToken: string, account?: string): string {
  return revokeProof(stateKey, { integration, accessToken, account });
}

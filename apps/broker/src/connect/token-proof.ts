import { createHash, createHmac, timingSafeEqual } from "node:crypto";

/**
 * What the broker vouches for in a bundle it seals, so that later calls can prove it
 * without the broker keeping anything: a MAC (HMAC-SHA-256) under a key derived from
 * the state key, over digests of the tokens, never the tokens themselves.
 *
 * - `refresh_binding` (`rb1.`): this refresh token was issued to this client key.
 *   `POST /connect/:id/refresh` refreshes only with it and that key, so a leaked
 *   refresh token cannot mint tokens for another key.
 * - `revoke_proof` (`rp1.`): this access token was issued by this broker for this
 *   integration (and, for Stripe, this connected account). `POST /connect/:id/revoke`
 *   disconnects a Stripe account only with it, and counts proven revocations apart
 *   from anonymous ones.
 */
const REFRESH_PREFIX = "rb1.";
const REVOKE_PREFIX = "rp1.";
const ACCOUNT_PREFIX = "ab1.";
const MAX_PROOF_LENGTH = 64;

/** A token as the MAC sees it: its SHA-256, so nothing secret is in the message. */
const digestOf = (token: string) => createHash("sha256").update(token, "utf8").digest("base64url");

function mac(stateKey: string, purpose: string, parts: readonly string[]): Buffer {
  // One key per purpose, derived from the state key: a refresh binding never passes as a revoke proof.
  const key = createHmac("sha256", Buffer.from(stateKey, "base64url")).update(`eleven.broker.${purpose}.v1`).digest();
  const hmac = createHmac("sha256", key);
  // Length-prefixed, so no two lists of parts give the same message.
  for (const part of parts) hmac.update(`${Buffer.byteLength(part)}:${part}`);
  return hmac.digest();
}

function verify(stateKeys: readonly string[], prefix: string, purpose: string, proof: string | undefined, parts: readonly string[]): boolean {
  if (proof === undefined || proof.length > MAX_PROOF_LENGTH || !proof.startsWith(prefix)) return false;
  const given = Buffer.from(proof.slice(prefix.length), "base64url");
  if (given.length !== 32) return false;
  // Every key a state opens with, so a rotation does not unbind what members hold.
  return stateKeys.some((stateKey) => timingSafeEqual(given, mac(stateKey, purpose, parts)));
}

export interface RefreshBindingInput {
  integration: string;
  refreshToken: string;
  clientKey: string;
}

const refreshParts = (input: RefreshBindingInput) => [input.integration, digestOf(input.refreshToken), input.clientKey];

/** The binding of a refresh token to the client key it was sealed to. */
export function refreshBinding(stateKey: string, input: RefreshBindingInput): string {
  return REFRESH_PREFIX + mac(stateKey, "refresh-binding", refreshParts(input)).toString("base64url");
}

/** True when `binding` binds this refresh token to this client key (under any of `stateKeys`). */
export function verifyRefreshBinding(stateKeys: readonly string[], binding: string | undefined, input: RefreshBindingInput): boolean {
  return verify(stateKeys, REFRESH_PREFIX, "refresh-binding", binding, refreshParts(input));
}

export interface RevokeProofInput {
  integration: string;
  accessToken: string;
  /** The connected account the token acts for, where the revocation names one (Stripe's `stripe_user_id`). */
  account?: string | undefined;
}

const revokeParts = (input: RevokeProofInput) => [input.integration, digestOf(input.accessToken), input.account ?? ""];

/** The proof that this broker issued this access token (for this account). */
export function revokeProof(stateKey: string, input: RevokeProofInput): string {
  return REVOKE_PREFIX + mac(stateKey, "revoke-proof", revokeParts(input)).toString("base64url");
}

/** True when `proof` vouches for this access token (and account) under any of `stateKeys`. */
export function verifyRevokeProof(stateKeys: readonly string[], proof: string | undefined, input: RevokeProofInput): boolean {
  return verify(stateKeys, REVOKE_PREFIX, "revoke-proof", proof, revokeParts(input));
}

export interface AccountBindingInput {
  integration: string;
  /** The account id the identity op named (`bundle.account.id`). */
  account: string;
  clientKey: string;
}

const accountParts = (input: AccountBindingInput) => [input.integration, input.account, input.clientKey];

/**
 * `account_binding` (`ab1.`): this broker connected this account of this integration for this
 * client key. An event registration carries it: events of an account are routed only to bots of
 * a member whose key connected it.
 */
export function accountBinding(stateKey: string, input: AccountBindingInput): string {
  return ACCOUNT_PREFIX + mac(stateKey, "account-binding", accountParts(input)).toString("base64url");
}

/** True when `binding` says this client key connected this account (under any of `stateKeys`). */
export function verifyAccountBinding(stateKeys: readonly string[], binding: string | undefined, input: AccountBindingInput): boolean {
  return verify(stateKeys, ACCOUNT_PREFIX, "account-binding", binding, accountParts(input));
}

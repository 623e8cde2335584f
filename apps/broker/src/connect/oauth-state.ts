import { secretboxOpen, secretboxSeal } from "@eleven-integrations/grants";
import { z } from "zod";

/** How long a member has between `start` and `callback`. */
export const STATE_TTL_SECONDS = 600;
/** A sealed state is a few hundred characters; anything much longer is refused unopened. */
export const MAX_STATE_LENGTH = 4096;
const CLOCK_SKEW_SECONDS = 60;
const STATE_TYPE = "eleven.broker.oauth-state";

/** What one connect flow carries from `start` to `callback`, sealed inside `state`. */
export interface OAuthState {
  integration: string;
  /** The PKCE code verifier: only the broker ever sees it. */
  verifier: string;
  /** The member client's X25519 key the tokens are sealed to. */
  clientKey: string;
  returnTo: string;
  /** sha-256 (unpadded base64url) of the nonce in the starting browser's binding cookie. */
  browser: string;
  /** The tenant settings the provider's OAuth URLs carry (`{ subdomain: "acme" }`), fixed at start. */
  connection?: Record<string, string>;
  /** The ops the connect named (`?ops=`): their scopes are asked with the manifest's. */
  ops?: string[];
  /** Unix seconds. */
  exp: number;
}

const payloadSchema = z.strictObject({
  v: z.literal(1),
  typ: z.literal(STATE_TYPE),
  integration: z.string().min(1).max(40),
  verifier: z.string().regex(/^[A-Za-z0-9._~-]{43,128}$/),
  client_key: z.string().min(1).max(64),
  return_to: z.string().min(1).max(2048),
  browser: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  connection: z.record(z.string().regex(/^[a-z][a-z0-9_]{0,31}$/), z.string().min(1).max(63)).optional(),
  ops: z.array(z.string().max(100)).max(100).optional(),
  exp: z.number().int().positive(),
});

export type OpenStateResult = { ok: true; state: OAuthState } | { ok: false; reason: "invalid" | "expired" };

/**
 * Seals a flow with `crypto_secretbox` under the broker's current key, so any
 * instance holding the key can finish the flow and nothing is stored. The `typ`
 * keeps this key's boxes from being mistaken for anything else.
 */
export function sealState(state: Omit<OAuthState, "exp">, key: string, now: number): string {
  const payload: z.infer<typeof payloadSchema> = {
    v: 1,
    typ: STATE_TYPE,
    integration: state.integration,
    verifier: state.verifier,
    client_key: state.clientKey,
    return_to: state.returnTo,
    browser: state.browser,
    ...(state.connection === undefined ? {} : { connection: state.connection }),
    ...(state.ops === undefined || state.ops.length === 0 ? {} : { ops: state.ops }),
    exp: now + STATE_TTL_SECONDS,
  };
  return secretboxSeal(JSON.stringify(payload), key);
}

/**
 * Opens a state with the current or an older key. `invalid` covers everything
 * that did not authenticate (altered, foreign key, garbage) or is not our
 * payload; `expired` is told apart only after the box authenticated.
 */
export function openState(sealed: string, keys: string[], now: number): OpenStateResult {
  if (sealed.length > MAX_STATE_LENGTH) return { ok: false, reason: "invalid" };
  const bytes = secretboxOpen(sealed, keys);
  if (bytes === undefined) return { ok: false, reason: "invalid" };
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return { ok: false, reason: "invalid" };
  }
  const parsed = payloadSchema.safeParse(json);
  if (!parsed.success) return { ok: false, reason: "invalid" };
  const payload = parsed.data;
  if (payload.exp > now + STATE_TTL_SECONDS + CLOCK_SKEW_SECONDS) return { ok: false, reason: "invalid" };
  if (payload.exp <= now) return { ok: false, reason: "expired" };
  const state: OAuthState = {
    integration: payload.integration,
    verifier: payload.verifier,
    clientKey: payload.client_key,
    returnTo: payload.return_to,
    browser: payload.browser,
    exp: payload.exp,
  };
  if (payload.connection !== undefined) state.connection = payload.connection;
  if (payload.ops !== undefined) state.ops = payload.ops;
  return { ok: true, state };
}

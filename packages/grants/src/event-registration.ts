import { canonicalJson } from "@eleven-integrations/schema";
import { z } from "zod";
import { decodeKey, fromBase64Url, isBase64UrlOf, toBase64Url } from "./base64url.js";
import { GrantError } from "./grant-error.js";
import { INTEGRATION_ID, MAX_ACCOUNT_TEXT, OP_ID, isUnixSeconds } from "./grant-payload.js";
import { memberSigningKey, type KeyPair } from "./keys.js";
import { CLOCK_SKEW_SECONDS, MAX_SUBSCRIPTION_TTL_SECONDS, unixNow } from "./limits.js";
import { signedMessage } from "./signed-message.js";
import { lib } from "./sodium.js";
import { MAX_SUBSCRIPTION_EVENTS, subscriptionPayloadSchema } from "./subscription-payload.js";
import { utf8 } from "./text-bytes.js";

/**
 * An event registration (`ew1.`): what a broker needs to route an app webhook's events to a
 * bot, signed by the member in the clear (the broker cannot open the `es1.` subscription sealed
 * to the bot, so the member tells it, in the same words, which bot, account, events and args).
 */
export const REGISTRATION_PREFIX = "ew1.";
export const MAX_REGISTRATION_LENGTH = 8 * 1024;
const REGISTRATION_CONTEXT = utf8("eleven.registration.v1");
const SIGNATURE_BYTES = 64;

const key32 = (what: string) => z.string().refine((value) => isBase64UrlOf(value, 32), `${what} must be 32 bytes of unpadded base64url`);
const args = subscriptionPayloadSchema.shape.args;

export const registrationPayloadSchema = z
  .strictObject({
    v: z.literal(1),
    typ: z.literal("registration"),
    /** The sid of the `es1.` subscription this registration routes for. */
    sid: z.string().refine((value) => isBase64UrlOf(value, 16), "sid must be 16 bytes of unpadded base64url"),
    /** The member's Ed25519 public key that signed it. */
    iss: key32("iss"),
    /** The bot's X25519 public key: its events are sealed to it. */
    bot: key32("bot"),
    integration: z.string().regex(INTEGRATION_ID),
    /** The provider account id whose events to route (as the connect bundle's `account.id`). */
    account: z.string().min(1).max(MAX_ACCOUNT_TEXT),
    /** The broker's `account_binding` from the connect bundle: this account was connected to the member's key. */
    account_binding: z.string().min(1).max(64),
    events: z
      .array(z.string().regex(OP_ID))
      .min(1)
      .max(MAX_SUBSCRIPTION_EVENTS)
      .refine((events) => new Set(events).size === events.length, "names an event twice"),
    args,
    iat: z.number().int().nonnegative(),
    exp: z.number().int().nonnegative(),
  })
  .refine((registration) => registration.exp > registration.iat, "`exp` must be after `iat`");
export type Registration = z.infer<typeof registrationPayloadSchema>;

export interface SignRegistrationInput {
  member: KeyPair;
  registration: Omit<Registration, "v" | "typ" | "iss" | "iat" | "exp">;
  /** 1 s to 30 days, as a subscription; longer is `ttl_too_long`. */
  ttlSeconds: number;
  now?: number;
}

function checked(object: unknown): Registration {
  const parsed = registrationPayloadSchema.safeParse(object);
  if (parsed.success) return parsed.data;
  const path = parsed.error.issues[0]?.path.map(String).join(".") ?? "";
  throw new GrantError("malformed", `registration payload: ${path === "" ? "is not valid" : `\`${path}\` is not valid`}`);
}

/** Signs an event registration (`ew1.<b64url(signature ‖ canonical JSON)>`, context `eleven.registration.v1`). Throws `GrantError`. */
export function signRegistration(input: SignRegistrationInput): string {
  const { ttlSeconds } = input;
  if (!Number.isSafeInteger(ttlSeconds) || ttlSeconds < 1) throw new GrantError("malformed", "ttlSeconds must be a positive whole number of seconds");
  if (ttlSeconds > MAX_SUBSCRIPTION_TTL_SECONDS) throw new GrantError("ttl_too_long", `ttlSeconds is over ${MAX_SUBSCRIPTION_TTL_SECONDS}`);
  const now = input.now ?? unixNow();
  if (!isUnixSeconds(now)) throw new GrantError("malformed", "now must be Unix seconds");
  const member = memberSigningKey(input.member);
  const payload = checked({ ...input.registration, v: 1, typ: "registration", iss: input.member.publicKey, iat: now, exp: now + ttlSeconds });
  const bytes = utf8(canonicalJson(payload));
  const signature = lib().crypto_sign_detached(signedMessage([REGISTRATION_CONTEXT, bytes]), member.secretKey);
  const token = REGISTRATION_PREFIX + toBase64Url(new Uint8Array([...signature, ...bytes]));
  if (token.length > MAX_REGISTRATION_LENGTH) throw new GrantError("malformed", `the registration would be over ${MAX_REGISTRATION_LENGTH} characters`);
  return token;
}

/**
 * Verifies an event registration signed by its `iss`, live at `now` (Unix seconds): answers its
 * payload or throws `GrantError` (`malformed`, `bad_signature`, `expired`, `not_yet_valid`, `ttl_too_long`).
 */
export function verifyRegistration(token: string, options: { now?: number } = {}): Registration {
  if (typeof token !== "string" || token.length > MAX_REGISTRATION_LENGTH || !token.startsWith(REGISTRATION_PREFIX))
    throw new GrantError("malformed", `a registration is ${REGISTRATION_PREFIX}… of at most ${MAX_REGISTRATION_LENGTH} characters`);
  let bytes: Uint8Array;
  try {
    bytes = fromBase64Url(token.slice(REGISTRATION_PREFIX.length));
  } catch {
    throw new GrantError("malformed", "the registration is not base64url");
  }
  if (bytes.length <= SIGNATURE_BYTES) throw new GrantError("malformed", "the registration is too short");
  const payloadBytes = bytes.subarray(SIGNATURE_BYTES);
  let object: unknown;
  try {
    object = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(payloadBytes));
  } catch {
    throw new GrantError("malformed", "the registration payload is not JSON");
  }
  const payload = checked(object);
  if (canonicalJson(payload) !== new TextDecoder().decode(payloadBytes)) throw new GrantError("malformed", "the registration payload is not canonical JSON");
  const signed = lib().crypto_sign_verify_detached(
    bytes.subarray(0, SIGNATURE_BYTES),
    signedMessage([REGISTRATION_CONTEXT, payloadBytes]),
    decodeKey(payload.iss, 32, "iss"),
  );
  if (!signed) throw new GrantError("bad_signature", "the registration is not signed by its iss");
  const now = options.now ?? unixNow();
  if (payload.exp - payload.iat > MAX_SUBSCRIPTION_TTL_SECONDS) throw new GrantError("ttl_too_long", "the registration lives longer than 30 days");
  if (payload.iat > now + CLOCK_SKEW_SECONDS) throw new GrantError("not_yet_valid", "the registration is issued in the future");
  if (payload.exp <= now) throw new GrantError("expired", "the registration has expired");
  return payload;
}

/**
 * The X25519 public key of a member's Ed25519 key (`crypto_sign_ed25519_pk_to_curve25519`): the
 * client key a member connects with when its connections are to be provably its own (the broker's
 * `account_binding` names this key).
 */
export function memberBoxKey(memberPublicKey: string): string {
  return toBase64Url(lib().crypto_sign_ed25519_pk_to_curve25519(decodeKey(memberPublicKey, 32, "member public key")));
}

/** The matching X25519 secret key, for the member's client to open what was sealed to `memberBoxKey`. */
export function memberBoxKeys(member: KeyPair): KeyPair {
  const signing = memberSigningKey(member);
  return {
    publicKey: toBase64Url(lib().crypto_sign_ed25519_pk_to_curve25519(signing.publicKey)),
    secretKey: toBase64Url(lib().crypto_sign_ed25519_sk_to_curve25519(signing.secretKey)),
  };
}

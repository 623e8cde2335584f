import { decodeKey, fromBase64Url, toBase64Url } from "./base64url.js";
import { GrantError } from "./grant-error.js";
import type { KeyPair } from "./keys.js";
import { isUnixSeconds } from "./grant-payload.js";
import { unixNow } from "./limits.js";
import { MAX_RECEIPT_LENGTH, RECEIPT_PREFIX, receiptPayloadSchema, type ReceiptInput, type ReceiptPayload } from "./receipt-payload.js";
import { concatBytes, RECEIPT_CONTEXT, signedMessage } from "./signed-message.js";
import { lib } from "./sodium.js";
import { parseJsonObject, requireCanonical } from "./strict-json.js";
import { utf8 } from "./text-bytes.js";
import { canonicalJson } from "@eleven-integrations/schema";

const SIGNATURE_BYTES = 64;

export interface SignReceiptOptions {
  /** The sidecar's receipt secret key (Ed25519, libsodium's 64 bytes: seed then public key), unpadded base64url. */
  key: string;
}

export interface VerifyReceiptOptions {
  /** The sidecar's receipt public key (`receipt_key` of `GET /v1/identity`), unpadded base64url. */
  key: string;
}

/** Domain separation of the receipt key a bot's box key derives. */
const RECEIPT_KEY_CONTEXT = utf8("eleven.receipt-key.v1");

/**
 * The receipt keys of a bot, derived from its box secret key (BLAKE2b-256 keyed
 * by it over `eleven.receipt-key.v1`, as the Ed25519 seed): every sidecar of the
 * bot holds the bot key, so all of them sign with one receipt key and each
 * verifies the receipts of the others. Nothing about the bot key can be learned
 * from the receipt key.
 */
export function receiptKeysFor(bot: KeyPair): KeyPair {
  const botSecret = decodeKey(bot.secretKey, 32, "bot secret key");
  const seed = lib().crypto_generichash(32, RECEIPT_KEY_CONTEXT, botSecret);
  const pair = lib().crypto_sign_seed_keypair(seed);
  return { publicKey: toBase64Url(pair.publicKey), secretKey: toBase64Url(pair.privateKey) };
}

/** A sidecar's receipt keys: Ed25519, a 32-byte public key and libsodium's 64-byte secret key. */
export function generateReceiptKeys(): KeyPair {
  const pair = lib().crypto_sign_keypair();
  return { publicKey: toBase64Url(pair.publicKey), secretKey: toBase64Url(pair.privateKey) };
}

function checkPayload(value: unknown): ReceiptPayload {
  const parsed = receiptPayloadSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  // The path names the field; zod's own message may quote the value, so it is not passed on.
  const issue = parsed.error.issues[0];
  const what =
    issue?.code === "unrecognized_keys"
      ? "has an unknown key"
      : issue !== undefined && issue.path.length > 0
        ? `\`${issue.path.join(".")}\` is missing or invalid`
        : "is not a receipt";
  throw new GrantError("malformed", `receipt payload ${what}`);
}

/**
 * The RFC 8785 canonical JSON of a checked receipt payload, keys in code-unit
 * order, written field by field: what `canonicalJson` gives for it at a fraction
 * of the cost. Every string field was checked to hold only characters JSON writes
 * as they are (base64url, hex, ids), so none needs escaping.
 */
function receiptJson(payload: ReceiptPayload): string {
  // `account` is the one field with free text: written by the general canonicalisation (keys `id`, `name`, escaped).
  const account = payload.account === undefined ? "" : `"account":${canonicalJson({ id: payload.account.id, name: payload.account.name })},`;
  const aid = payload.aid === undefined ? "" : `"aid":"${payload.aid}",`;
  return (
    `{${account}${aid}"args_digest":"${payload.args_digest}","at":${payload.at},"aud":"${payload.aud}","audit_id":"${payload.audit_id}","gid":"${payload.gid}",` +
    `"http_status":${payload.http_status === null ? "null" : payload.http_status},"integration":"${payload.integration}",` +
    `"iss":"${payload.iss}","kid":"${payload.kid}","line_digest":"${payload.line_digest}","manifest_hash":"${payload.manifest_hash}","nonce":"${payload.nonce}",` +
    `"op":"${payload.op}","registry_hash":"${payload.registry_hash}","result_digest":"${payload.result_digest}",` +
    `"status":"${payload.status}","typ":"receipt","v":1}`
  );
}

/**
 * Signs a receipt (`ew1.<b64url(signature ‖ payload)>`): the sidecar's word for
 * what one write ran and how it ended. The payload is RFC 8785 JSON, signed with
 * context `eleven.receipt.v1`, length-prefixed like grants; it travels beside the
 * signature, so a verifier needs only the public key. Throws `GrantError`
 * `malformed` for a bad key or field.
 */
export function signReceipt(input: ReceiptInput, options: SignReceiptOptions): string {
  const secretKey = decodeKey(options.key, 64, "receipt secret key");
  const at = input.at ?? unixNow();
  if (!isUnixSeconds(at)) throw new GrantError("malformed", "receipt `at` must be Unix seconds");
  // The key id is the signing key's public half (libsodium's secret key ends with it).
  const payload = checkPayload({ ...input, v: 1, typ: "receipt", at, kid: toBase64Url(secretKey.subarray(32)) });
  const bytes = utf8(receiptJson(payload));
  const signature = lib().crypto_sign_detached(signedMessage([RECEIPT_CONTEXT, bytes]), secretKey);
  return RECEIPT_PREFIX + toBase64Url(concatBytes(signature, bytes));
}

/**
 * Verifies a receipt and returns what it says, in this order: at most 4 096
 * characters, `ew1.`, base64url, longer than a signature (`malformed`); the
 * signature verifies with `key` over context `eleven.receipt.v1` and the payload
 * (`bad_signature`); the payload is exactly its RFC 8785 JSON with exactly the
 * receipt's fields, each valid (`malformed`). Throws `GrantError`.
 */
export function verifyReceipt(token: string, options: VerifyReceiptOptions): ReceiptPayload {
  if (typeof token !== "string" || token.length > MAX_RECEIPT_LENGTH) {
    throw new GrantError("malformed", `a receipt is at most ${MAX_RECEIPT_LENGTH} characters`);
  }
  if (!token.startsWith(RECEIPT_PREFIX)) throw new GrantError("malformed", `a receipt starts with ${RECEIPT_PREFIX}`);
  const publicKey = decodeKey(options.key, 32, "receipt public key");
  const bytes = fromBase64Url(token.slice(RECEIPT_PREFIX.length));
  if (bytes.length <= SIGNATURE_BYTES) throw new GrantError("malformed", "receipt is too short");
  const signature = bytes.subarray(0, SIGNATURE_BYTES);
  const payloadBytes = bytes.subarray(SIGNATURE_BYTES);
  if (!lib().crypto_sign_verify_detached(signature, signedMessage([RECEIPT_CONTEXT, payloadBytes]), publicKey)) {
    throw new GrantError("bad_signature", "the receipt's signature does not verify with this key");
  }
  const { object, text } = parseJsonObject(payloadBytes, "receipt payload");
  const payload = checkPayload(object);
  requireCanonical(text, receiptJson(payload), "receipt payload");
  if (payload.kid !== options.key) throw new GrantError("mismatch", "the receipt names another signing key (kid) than the one it verified with");
  return payload;
}

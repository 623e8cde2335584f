import { hasNoStrayBits, isBase64UrlOf } from "./base64url.js";
import { GrantError } from "./grant-error.js";
import { isOpId, isUnixSeconds } from "./grant-payload.js";
import { checkKeys, parseJsonObject, requireCanonical } from "./strict-json.js";
import { asciiText } from "./text-bytes.js";

/** The signed payload of a confirmation. */
export interface ConfirmationPayload {
  v: 1;
  gid: string;
  op: string;
  args_digest: string;
  line_digest: string;
  nonce: string;
  exp: number;
}

/** Prefix of every confirmation token. */
export const CONFIRMATION_PREFIX = "ec1.";

const KEYS = ["v", "gid", "op", "args_digest", "line_digest", "nonce", "exp"];

function refuse(message: string): never {
  throw new GrantError("malformed", `confirmation payload: ${message}`);
}

/** Checks every field of a confirmation payload; throws `GrantError` `malformed`. */
export function checkConfirmationPayload(object: Record<string, unknown>): ConfirmationPayload {
  checkKeys(object, KEYS, [], "confirmation payload");
  const { v, gid, op, args_digest, line_digest, nonce, exp } = object;
  if (v !== 1) refuse("`v` must be 1");
  if (!isBase64UrlOf(gid, 16)) refuse("`gid` must be 16 bytes of unpadded base64url");
  if (!isOpId(op)) refuse("`op` is not an op id");
  if (!isBase64UrlOf(args_digest, 32)) refuse("`args_digest` must be 32 bytes of unpadded base64url");
  if (!isBase64UrlOf(line_digest, 32)) refuse("`line_digest` must be 32 bytes of unpadded base64url");
  if (!isBase64UrlOf(nonce, 16)) refuse("`nonce` must be 16 bytes of unpadded base64url");
  if (!isUnixSeconds(exp)) refuse("`exp` must be Unix seconds");
  return { v, gid, op, args_digest, line_digest, nonce, exp };
}

/**
 * The RFC 8785 canonical JSON of a checked confirmation payload, keys in
 * code-unit order; every string field was checked to need no escaping.
 */
export function confirmationJson(payload: ConfirmationPayload): string {
  return (
    `{"args_digest":"${payload.args_digest}","exp":${payload.exp},"gid":"${payload.gid}",` +
    `"line_digest":"${payload.line_digest}","nonce":"${payload.nonce}","op":"${payload.op}","v":1}`
  );
}

// The whole canonical payload as one pattern: a payload either matches it (and
// then only the stray bits of its base64url fields and the size of `exp` are
// left to check) or is refused, with the reason found by the field-by-field path.
const CANONICAL =
  /^\{"args_digest":"([\w-]{43})","exp":(0|[1-9]\d{0,15}),"gid":"([\w-]{22})","line_digest":"([\w-]{43})","nonce":"([\w-]{22})","op":"([a-z][a-z0-9_]*\.[a-z][a-z0-9_]*)","v":1\}$/;

/**
 * Reads a confirmation payload from its signed bytes: exactly its RFC 8785
 * canonical JSON, every field checked. Throws `GrantError` `malformed`.
 */
export function readConfirmationPayload(bytes: Uint8Array): ConfirmationPayload {
  // Every byte of a valid payload is ASCII.
  const text = asciiText(bytes);
  const match = text === undefined ? null : CANONICAL.exec(text);
  if (match !== null) {
    const [, args_digest = "", expText = "", gid = "", line_digest = "", nonce = "", op = ""] = match;
    const exp = Number(expText);
    if (isUnixSeconds(exp) && hasNoStrayBits(args_digest, 32) && hasNoStrayBits(gid, 16) && hasNoStrayBits(line_digest, 32) && hasNoStrayBits(nonce, 16)) {
      return { v: 1, gid, op, args_digest, line_digest, nonce, exp };
    }
  }
  const parsed = parseJsonObject(bytes, "confirmation payload");
  const payload = checkConfirmationPayload(parsed.object);
  requireCanonical(parsed.text, confirmationJson(payload), "confirmation payload");
  // Unreachable while the pattern and the checks agree (a test holds them to it).
  throw new GrantError("malformed", "confirmation payload is not canonical");
}

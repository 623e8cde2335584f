import { isBase64UrlOf } from "./base64url.js";
import { GrantError } from "./grant-error.js";
import { isOpId, isUnixSeconds } from "./grant-payload.js";
import { checkKeys } from "./strict-json.js";

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

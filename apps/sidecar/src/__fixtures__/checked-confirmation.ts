import { createHash, createPrivateKey, sign } from "node:crypto";
import {
  argsDigest,
  blake2b256Base64Url,
  checkConfirmation,
  generateMemberKeys,
  ready,
  toBase64Url,
  type CheckedConfirmation,
  type Grant,
  type KeyPair,
} from "@eleven-integrations/grants";

const OP = "issues.close";
const ARGS = { number: "7" };
const LINE = "Close issue #7";
const members = new Map<string, KeyPair>();

/** 16 bytes of unpadded base64url standing for a readable label ("gid-1"): the same label, the same id. */
function idOf(label: string): string {
  return toBase64Url(createHash("sha256").update(label).digest().subarray(0, 16));
}

/** The member's signing keys a label stands for, made once per label. */
function memberOf(label: string): KeyPair {
  let keys = members.get(label);
  if (keys === undefined) {
    keys = generateMemberKeys();
    members.set(label, keys);
  }
  return keys;
}

/** The 4-byte big-endian length before each part, as grants signs. */
function signedMessage(parts: Uint8Array[]): Uint8Array {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(part.length);
    chunks.push(length, Buffer.from(part));
  }
  return Buffer.concat(chunks);
}

/**
 * A real `CheckedConfirmation` (signed by a member key and checked by grants'
 * `checkConfirmation`), for the state's tests that name entries by readable labels:
 * `member` labels a member key, `replayKey` is `<gid label>.<nonce label>`, and
 * `keepUntil` the last second (Unix) it is accepted. The nonce is chosen, so two
 * members can sign the same gid and nonce.
 */
export async function checkedAs(member: string, replayKey: string, keepUntil: number): Promise<CheckedConfirmation> {
  await ready();
  const [gidLabel = "", nonceLabel = ""] = replayKey.split(".");
  const keys = memberOf(member);
  const exp = keepUntil - 60;
  const gid = idOf(gidLabel);
  const payload = `{"args_digest":"${argsDigest(ARGS)}","exp":${exp},"gid":"${gid}","line_digest":"${blake2b256Base64Url(LINE)}","nonce":"${idOf(nonceLabel)}","op":"${OP}","v":1}`;
  const payloadBytes = Buffer.from(payload, "utf8");
  // libsodium's Ed25519 secret key is the 32-byte seed and the public key: node signs from the seed (PKCS #8).
  const seed = Buffer.from(keys.secretKey, "base64url").subarray(0, 32);
  const privateKey = createPrivateKey({ key: Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed]), format: "der", type: "pkcs8" });
  const signature = sign(null, signedMessage([Buffer.from("eleven.confirm.v1", "utf8"), payloadBytes]), privateKey);
  const token = `ec1.${toBase64Url(Buffer.concat([Buffer.from(signature), payloadBytes]))}`;
  const grant = { gid, iss: keys.publicKey } as Grant;
  return checkConfirmation(token, { grant, op: OP, args: ARGS, line: LINE, now: exp - 1 });
}

/** `checkedAs` for a confirmation whose own expiry (the member's `exp`) is `exp`: accepted until `exp` plus the 60 s of skew. */
export function checkedExpiring(member: string, replayKey: string, exp: number): Promise<CheckedConfirmation> {
  return checkedAs(member, replayKey, exp + 60);
}

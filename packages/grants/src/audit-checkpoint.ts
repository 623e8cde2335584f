import { decodeKey, fromBase64Url, toBase64Url } from "./base64url.js";
import { GrantError } from "./grant-error.js";
import type { KeyPair } from "./keys.js";
import { signedMessage } from "./signed-message.js";
import { lib } from "./sodium.js";
import { utf8 } from "./text-bytes.js";

/** Domain-separation context of an audit checkpoint's signature. */
const AUDIT_CHECKPOINT_CONTEXT = utf8("eleven.audit-checkpoint.v1");
export const AUDIT_CHECKPOINT_KIND = "audit-checkpoint";
const HEX_HASH = /^[0-9a-f]{64}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const B64URL = /^[A-Za-z0-9_-]+$/;
const KEYS = ["head", "key", "kind", "lines", "sig", "time"];

/**
 * A signed statement of an audit journal's head: after `lines` chained lines (counted
 * from the journal's first line, across rotated files), the last one hashes to `head`.
 * Kept apart from the journal, so lines removed from its end, or a rewritten middle
 * with every later hash recomputed, no longer match what was signed.
 */
export interface AuditCheckpoint {
  lines: number;
  /** Hex SHA-256 of the journal's last line at that point. */
  head: string;
  /** ISO 8601, UTC, milliseconds. */
  time: string;
  /** The signer's Ed25519 public key (the sidecar's `receipt_key`), unpadded base64url. */
  key: string;
  sig: string;
}

/** The signed bytes: the checkpoint's JSON without `sig`, keys in code-unit order. */
function payloadJson(checkpoint: Omit<AuditCheckpoint, "sig">): string {
  return `{"head":"${checkpoint.head}","key":"${checkpoint.key}","kind":"${AUDIT_CHECKPOINT_KIND}","lines":${checkpoint.lines},"time":"${checkpoint.time}"}`;
}

function checkFields(value: { lines: unknown; head: unknown; time: unknown }): void {
  if (!Number.isSafeInteger(value.lines) || (value.lines as number) < 1)
    throw new GrantError("malformed", "checkpoint `lines` must be a positive whole number");
  if (typeof value.head !== "string" || !HEX_HASH.test(value.head)) throw new GrantError("malformed", "checkpoint `head` must be a hex SHA-256");
  if (typeof value.time !== "string" || !ISO_TIME.test(value.time)) throw new GrantError("malformed", "checkpoint `time` must be an ISO 8601 UTC time");
}

/**
 * One checkpoint line (JSON, no line feed) for a journal of `lines` lines whose last
 * hashes to `head`, signed with the Ed25519 `keys` (context `eleven.audit-checkpoint.v1`,
 * length-prefixed like grants). Throws `GrantError` `malformed` for a bad field or key.
 */
export function signAuditCheckpoint(input: { lines: number; head: string; time?: string }, keys: KeyPair): string {
  const time = input.time ?? new Date().toISOString();
  checkFields({ ...input, time });
  const secretKey = decodeKey(keys.secretKey, 64, "checkpoint secret key");
  decodeKey(keys.publicKey, 32, "checkpoint public key");
  const payload = payloadJson({ lines: input.lines, head: input.head, time, key: keys.publicKey });
  const signature = lib().crypto_sign_detached(signedMessage([AUDIT_CHECKPOINT_CONTEXT, utf8(payload)]), secretKey);
  return `${payload.slice(0, -1)},"sig":"${toBase64Url(signature)}"}`;
}

/**
 * Reads one checkpoint line and checks its signature against the key it names, or
 * against `key` when given (the signer must be that key). Throws `GrantError`:
 * `malformed` (not a checkpoint line), `mismatch` (another key signed it),
 * `bad_signature` (changed after signing).
 */
export function verifyAuditCheckpoint(line: string, options: { key?: string | undefined } = {}): AuditCheckpoint {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new GrantError("malformed", "not a checkpoint line (no JSON)");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new GrantError("malformed", "not a checkpoint line");
  const object = value as Record<string, unknown>;
  if (object["kind"] !== AUDIT_CHECKPOINT_KIND || Object.keys(object).sort().join(",") !== KEYS.join(",")) {
    throw new GrantError("malformed", "not a checkpoint line (kind and fields)");
  }
  const { lines, head, time, key, sig } = object;
  checkFields({ lines, head, time });
  if (typeof key !== "string" || !B64URL.test(key) || typeof sig !== "string" || !B64URL.test(sig))
    throw new GrantError("malformed", "checkpoint `key` and `sig` are base64url");
  if (options.key !== undefined && key !== options.key) throw new GrantError("mismatch", "the checkpoint was signed by another key");
  const checkpoint: AuditCheckpoint = { lines: lines as number, head: head as string, time: time as string, key, sig };
  const publicKey = decodeKey(key, 32, "checkpoint public key");
  const signature = fromBase64Url(sig);
  const payload = utf8(payloadJson(checkpoint));
  if (signature.length !== 64 || !lib().crypto_sign_verify_detached(signature, signedMessage([AUDIT_CHECKPOINT_CONTEXT, payload]), publicKey)) {
    throw new GrantError("bad_signature", "the checkpoint's signature does not verify");
  }
  return checkpoint;
}

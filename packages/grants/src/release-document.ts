import { isBase64UrlOf } from "./base64url.js";
import { ReleaseError } from "./release-error.js";

/** What a release signs: the registry's hash, its place in the sequence, and its manifests. */
export interface ReleaseBody {
  schema: 1;
  /** The loader's registry hash of `integrations` (64 lowercase hex digits). */
  hash: string;
  /** Position of this release; a sidecar accepts only a sequence above the one it runs. */
  sequence: number;
  /** `hash` of the release before this one, or null for the first. */
  previous: string | null;
  /** The manifests, sorted by id, as the loader validates them (not validated here). */
  integrations: unknown[];
}

/** One signature over a release: an Ed25519 public key and its detached signature, unpadded base64url. */
export interface ReleaseSignature {
  key: string;
  signature: string;
}

/** The signed release document: `{ registry, signatures }`. */
export interface ReleaseDocument {
  registry: ReleaseBody;
  signatures: ReleaseSignature[];
}

/** More signatures than anyone needs; a document with more is refused before any is checked. */
export const MAX_RELEASE_SIGNATURES = 16;

const HASH = /^[0-9a-f]{64}$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function exactKeys(value: Record<string, unknown>, keys: readonly string[], where: string): void {
  for (const key of Object.keys(value)) {
    if (!keys.includes(key)) throw new ReleaseError("malformed", `${where} has an unknown key ${JSON.stringify(key)}`);
  }
  for (const key of keys) {
    if (!Object.hasOwn(value, key)) throw new ReleaseError("malformed", `${where} lacks "${key}"`);
  }
}

/** Checks a parsed release document's shape (not its signatures, not its manifests); throws `ReleaseError` `malformed`. */
export function checkReleaseDocument(value: unknown): ReleaseDocument {
  if (!isRecord(value)) throw new ReleaseError("malformed", "a release is a JSON object { registry, signatures }");
  exactKeys(value, ["registry", "signatures"], "the release");
  checkReleaseBody(value["registry"]);
  const signatures = value["signatures"];
  if (!Array.isArray(signatures) || signatures.length === 0) throw new ReleaseError("malformed", "signatures must be a non-empty array");
  if (signatures.length > MAX_RELEASE_SIGNATURES) throw new ReleaseError("malformed", `more than ${MAX_RELEASE_SIGNATURES} signatures`);
  signatures.forEach((entry: unknown, index) => {
    const where = `signatures[${index}]`;
    if (!isRecord(entry)) throw new ReleaseError("malformed", `${where} must be an object { key, signature }`);
    exactKeys(entry, ["key", "signature"], where);
    if (!isBase64UrlOf(entry["key"], 32)) throw new ReleaseError("malformed", `${where}.key is not a 32-byte unpadded base64url key`);
    if (!isBase64UrlOf(entry["signature"], 64)) throw new ReleaseError("malformed", `${where}.signature is not 64 bytes of unpadded base64url`);
  });
  return value as unknown as ReleaseDocument;
}

/** Checks the signed part of a release; throws `ReleaseError` `malformed`. */
export function checkReleaseBody(value: unknown): ReleaseBody {
  if (!isRecord(value)) throw new ReleaseError("malformed", "registry must be an object");
  exactKeys(value, ["schema", "hash", "sequence", "previous", "integrations"], "registry");
  if (value["schema"] !== 1) throw new ReleaseError("malformed", "registry.schema must be 1");
  if (typeof value["hash"] !== "string" || !HASH.test(value["hash"])) throw new ReleaseError("malformed", "registry.hash must be 64 lowercase hex digits");
  const sequence = value["sequence"];
  if (typeof sequence !== "number" || !Number.isSafeInteger(sequence) || sequence < 1) {
    throw new ReleaseError("malformed", "registry.sequence must be a whole number from 1");
  }
  const previous = value["previous"];
  if (previous !== null && (typeof previous !== "string" || !HASH.test(previous))) {
    throw new ReleaseError("malformed", "registry.previous must be null or 64 lowercase hex digits");
  }
  if (!Array.isArray(value["integrations"]) || value["integrations"].length === 0) {
    throw new ReleaseError("malformed", "registry.integrations must be a non-empty array");
  }
  return value as unknown as ReleaseBody;
}

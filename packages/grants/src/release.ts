import { deepFreeze } from "@eleven-integrations/schema";
import { canonicalParts, canonicalText } from "./canonical-text.js";
import { decodeKey, fromBase64Url, isBase64UrlOf, toBase64Url } from "./base64url.js";
import { GrantError } from "./grant-error.js";
import type { KeyPair } from "./keys.js";
import { checkReleaseBody, checkReleaseDocument, type ReleaseBody, type ReleaseDocument, type ReleaseSignature } from "./release-document.js";
import { ReleaseError } from "./release-error.js";
import { readLaidOutRelease } from "./release-layout.js";
import type { ReleaseManifestBytes } from "./release-pieces.js";
import { signedMessage } from "./signed-message.js";
import { lib } from "./sodium.js";
import { utf8, utf8Length, utf8OfParts } from "./text-bytes.js";

/** Domain-separation context of a registry release signature. */
export const RELEASE_CONTEXT = "eleven.registry.v1";
const RELEASE_CONTEXT_BYTES = utf8(RELEASE_CONTEXT);

/** Default size limit of a release document: far above a registry of thousands of manifests. */
export const MAX_RELEASE_BYTES = 16 * 1024 * 1024;

/** A release key: an Ed25519 signing key pair (the same shape as a member's keys). */
export function generateReleaseKeys(): KeyPair {
  const pair = lib().crypto_sign_keypair();
  return { publicKey: toBase64Url(pair.publicKey), secretKey: toBase64Url(pair.privateKey) };
}

/**
 * The bytes a release key signs: u32(18) ‖ "eleven.registry.v1" ‖ u32(n) ‖ the
 * UTF-8 of the RFC 8785 canonical JSON of `registry` (n bytes).
 */
export function releaseMessage(registry: ReleaseBody): Uint8Array {
  return signedMessage([RELEASE_CONTEXT_BYTES, utf8OfParts(canonicalParts(registry))]);
}

function signingKey(signer: KeyPair): Uint8Array {
  const publicKey = decodeKey(signer.publicKey, 32, "release public key");
  const secretKey = decodeKey(signer.secretKey, 64, "release secret key");
  if (!lib().memcmp(secretKey.subarray(32), publicKey)) {
    throw new GrantError("malformed", "release secret key does not belong to the release public key");
  }
  return secretKey;
}

/**
 * Signs a registry release with one or more release keys and returns the
 * document's text: `{ registry, signatures: [{ key, signature }] }` as RFC 8785
 * JSON and a newline. The body's shape is checked first (`ReleaseError`
 * `malformed`); its manifests are not: validate them with the loader before signing.
 */
export function signRelease(registry: ReleaseBody, signers: readonly KeyPair[]): string {
  checkReleaseBody(registry);
  if (signers.length === 0) throw new ReleaseError("malformed", "a release needs at least one signer");
  const message = releaseMessage(registry);
  const signatures: ReleaseSignature[] = signers.map((signer) => ({
    key: signer.publicKey,
    signature: toBase64Url(lib().crypto_sign_detached(message, signingKey(signer))),
  }));
  return `${canonicalText(checkReleaseDocument({ registry, signatures }))}\n`;
}

export interface ParseReleaseOptions {
  /** Refused (`too_large`) before parsing when longer; default {@link MAX_RELEASE_BYTES}. */
  maxBytes?: number;
}

export interface VerifyReleaseOptions extends ParseReleaseOptions {
  /** Ed25519 public keys (unpadded base64url) of the release keys trusted to sign; a key carried in the document is never trusted by itself. */
  trustedKeys: readonly string[];
}

export interface VerifiedRelease {
  document: ReleaseDocument;
  /** `document.registry`: signed by `key`; its manifests still need loading. */
  registry: ReleaseBody;
  /** {@link ParsedRelease.manifestBytes}, when the signature verified over the registry's bytes as they stand; else undefined. */
  manifestBytes: ReleaseManifestBytes | undefined;
  /** The trusted key whose signature verified. */
  key: string;
}

const decoder = new TextDecoder("utf-8", { fatal: true });
const encoder = new TextEncoder();
/** A lone UTF-16 surrogate: a text holding one is not read as bytes, since it does not survive encoding. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?:^|[^\ud800-\udbff])[\udc00-\udfff]/;
const BYTE_ORDER_MARK = [0xef, 0xbb, 0xbf];

/** The text of UTF-8 bytes (a leading byte order mark dropped); `malformed` when they are not UTF-8. This package runs in browsers too: no Buffer. */
function decodeUtf8(input: Uint8Array): string {
  try {
    return decoder.decode(input);
  } catch {
    throw new ReleaseError("malformed", "the release is not UTF-8 text");
  }
}

const EMPTY = new Uint8Array(0);

/** The bytes after a leading byte order mark (which decoding them drops too). */
function withoutByteOrderMark(bytes: Uint8Array): Uint8Array {
  return BYTE_ORDER_MARK.every((byte, index) => bytes[index] === byte) ? bytes.subarray(BYTE_ORDER_MARK.length) : bytes;
}

/**
 * A release document read once by {@link parseRelease}: checked for size, UTF-8, JSON
 * and shape, and frozen, so a caller that also loads its manifests need not read it
 * again before {@link verifyParsedRelease} checks its signatures.
 */
export interface ParsedRelease {
  readonly document: ReleaseDocument;
  /**
   * The UTF-8 of each manifest exactly as it stands in `document.registry.integrations`, and of
   * the array, when the document is laid out as {@link signRelease} writes it
   * (`{"registry":…,"signatures":…}`) and its registry is plain JSON with sorted keys;
   * undefined otherwise. Views of the bytes `parseRelease` was given, not copies. Once a
   * signature verifies over the registry's bytes as they stand (see {@link verifyParsedRelease}),
   * they are what the release key signed: the loader takes each manifest's canonical JSON from
   * them (`loadRegistryFromRelease`'s `manifestBytes`) instead of writing it again.
   */
  readonly manifestBytes: ReleaseManifestBytes | undefined;
}

/** Every release `parseRelease` read, with its registry's bytes as laid out (when they are): only those verify. */
const parsedReleases = new WeakMap<ParsedRelease, Uint8Array | undefined>();

/**
 * Reads a release document (size, UTF-8, JSON, the release shape) without checking
 * its signatures: hand it to {@link verifyParsedRelease}, which a caller that also
 * loads the manifests does once libsodium is ready, without reading the document again.
 * Throws `ReleaseError` (`too_large`, `malformed`).
 */
export function parseRelease(input: string | Uint8Array, options: ParseReleaseOptions = {}): ParsedRelease {
  const maxBytes = options.maxBytes ?? MAX_RELEASE_BYTES;
  const size = typeof input === "string" ? utf8Length(input) : input.byteLength;
  if (size > maxBytes) throw new ReleaseError("too_large", `the release is ${size} bytes, over the limit of ${maxBytes}`);
  const laidOut = readLaidOutRelease(typeof input === "string" ? (LONE_SURROGATE.test(input) ? EMPTY : encoder.encode(input)) : withoutByteOrderMark(input));
  let parsed: unknown;
  if (laidOut !== undefined) parsed = laidOut.document;
  else {
    try {
      parsed = JSON.parse(typeof input === "string" ? input : decodeUtf8(input));
    } catch (error) {
      throw new ReleaseError("malformed", `the release is not JSON (${(error as Error).message}); a truncated file looks like this`);
    }
  }
  // Frozen (the loader, adopting the manifests, freezes them anyway): nothing can change it between reading and verifying.
  const release: ParsedRelease = Object.freeze({ document: deepFreeze(checkReleaseDocument(parsed)), manifestBytes: laidOut?.manifestBytes });
  parsedReleases.set(release, laidOut?.registryBytes);
  return release;
}

/**
 * Checks that a release read by {@link parseRelease} is signed by at least one
 * trusted key (signatures by other keys are ignored; one trusted signature that
 * verifies is enough). Throws `ReleaseError` (`untrusted_key`, `bad_signature`).
 */
export function verifyParsedRelease(release: ParsedRelease, options: Pick<VerifyReleaseOptions, "trustedKeys">): VerifiedRelease {
  if (!parsedReleases.has(release)) throw new ReleaseError("malformed", "not a release read by parseRelease");
  const { document } = release;
  const trusted = new Set(options.trustedKeys.filter((key) => isBase64UrlOf(key, 32)));
  const candidates = document.signatures.filter((entry) => trusted.has(entry.key));
  if (candidates.length === 0) throw new ReleaseError("untrusted_key", "no signature by a trusted release key");
  // The registry's bytes as laid out are the canonical JSON whenever signRelease wrote the document: tried first, they spare
  // writing it again. Bytes that verify are what a release key signed, and the document's registry was parsed from them.
  const laidOut = parsedReleases.get(release);
  if (laidOut !== undefined) {
    const key = verifiedBy(candidates, signedMessage([RELEASE_CONTEXT_BYTES, laidOut]));
    if (key !== undefined) return { document, registry: document.registry, manifestBytes: release.manifestBytes, key };
  }
  const key = verifiedBy(candidates, releaseMessage(document.registry));
  // Signed over the canonical JSON but laid out otherwise: the layout's text is not what was signed.
  if (key !== undefined) return { document, registry: document.registry, manifestBytes: undefined, key };
  throw new ReleaseError("bad_signature", "the signature by a trusted release key does not verify: the release was changed after signing");
}

function verifiedBy(candidates: readonly ReleaseSignature[], message: Uint8Array): string | undefined {
  for (const candidate of candidates) {
    if (lib().crypto_sign_verify_detached(fromBase64Url(candidate.signature), message, fromBase64Url(candidate.key))) return candidate.key;
  }
  return undefined;
}

/**
 * Checks a release document: at most `maxBytes`, UTF-8 JSON of exactly the
 * release shape, and signed by at least one trusted key (signatures by other
 * keys are ignored; one trusted signature that verifies is enough). Throws
 * `ReleaseError` (`too_large`, `malformed`, `untrusted_key`, `bad_signature`).
 * Whether the manifests load and `hash` is theirs is the loader's to check. The
 * document it answers is frozen.
 */
export function verifyRelease(input: string | Uint8Array, options: VerifyReleaseOptions): VerifiedRelease {
  return verifyParsedRelease(parseRelease(input, options), options);
}

import { readRegistryPieces, type ReleaseManifestBytes } from "./release-pieces.js";
import { utf8 } from "./text-bytes.js";

const HEAD_BYTES = utf8('{"registry":');
const SIGNATURES_BYTES = utf8(',"signatures":');
const LINE_FEED = 0x0a;
const CLOSE_OBJECT = 0x7d;

/** A release document read as `signRelease` lays it out, with the registry's own bytes. */
export interface LaidOutRelease {
  /** `{ registry, signatures }`, each parsed from its own bytes: what `JSON.parse` of the whole document gives. */
  readonly document: unknown;
  /** The registry's JSON bytes exactly as they stand: for a release signed by `signRelease`, the canonical bytes a release key signed. */
  readonly registryBytes: Uint8Array;
  /** Its manifests' bytes, when the registry was read piece by piece (see `readRegistryPieces`). */
  readonly manifestBytes: ReleaseManifestBytes | undefined;
}

// `ignoreBOM`: a byte order mark before R or S is inside the document, where JSON does not allow it.
const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Reads `{"registry":R,"signatures":S}` (and an optional newline) from UTF-8 bytes: the layout
 * `signRelease` writes, where R is the very bytes a release key signs. R and S are parsed each
 * on its own (R piece by piece when it is plain JSON of a registry's shape, else decoded whole);
 * when both are whole JSON values, the document is what parsing the whole gives, and R's bytes
 * can be checked against a signature without writing the canonical JSON again. Undefined for
 * any other layout, or bytes that are not UTF-8 (the caller decodes and parses the whole, and
 * reports what is wrong). `S` is found by the last `,"signatures":` (inside a string its quotes
 * would be escaped): if that one is a key within S, R is not one JSON value, and the layout is
 * refused, not misread. An ASCII pattern is found in UTF-8 where it is in the text it decodes to.
 */
export function readLaidOutRelease(bytes: Uint8Array): LaidOutRelease | undefined {
  if (!startsWith(bytes, HEAD_BYTES)) return undefined;
  const last = bytes.length - (bytes[bytes.length - 1] === LINE_FEED ? 2 : 1);
  if (last < 0 || bytes[last] !== CLOSE_OBJECT) return undefined;
  const split = lastIndexOf(bytes, SIGNATURES_BYTES, last);
  if (split < HEAD_BYTES.length) return undefined;
  const registryBytes = bytes.subarray(HEAD_BYTES.length, split);
  try {
    const signatures: unknown = JSON.parse(strict.decode(bytes.subarray(split + SIGNATURES_BYTES.length, last)));
    const pieces = readRegistryPieces(registryBytes);
    const registry: unknown = pieces?.registry ?? JSON.parse(strict.decode(registryBytes));
    return { document: { registry, signatures }, registryBytes, manifestBytes: pieces?.bytes };
  } catch {
    return undefined;
  }
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  if (bytes.length < prefix.length) return false;
  for (let index = 0; index < prefix.length; index += 1) if (bytes[index] !== prefix[index]) return false;
  return true;
}

/** The last place at or before `from` where `pattern` starts in `bytes`, or -1 (searched backwards: the signatures end a release). */
function lastIndexOf(bytes: Uint8Array, pattern: Uint8Array, from: number): number {
  for (let start = Math.min(from, bytes.length - pattern.length); start >= 0; start -= 1) {
    let index = 0;
    while (index < pattern.length && bytes[start + index] === pattern[index]) index += 1;
    if (index === pattern.length) return start;
  }
  return -1;
}

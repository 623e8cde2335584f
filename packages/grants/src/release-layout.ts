import { utf8 } from "./text-bytes.js";

const HEAD = '{"registry":';
const SIGNATURES = ',"signatures":';
const HEAD_BYTES = utf8(HEAD);
const SIGNATURES_BYTES = utf8(SIGNATURES);

/** A release document read as `signRelease` lays it out, with the registry's own text and bytes. */
export interface LaidOutRelease {
  /** `{ registry, signatures }`, each parsed from its own text: what `JSON.parse` of the whole document gives. */
  readonly document: unknown;
  /** The registry's JSON exactly as it stands in the document. */
  readonly registryText: string;
  /** Its UTF-8 bytes: for a release signed by `signRelease`, the canonical bytes a release key signed. */
  readonly registryBytes: Uint8Array;
}

/**
 * Reads `{"registry":R,"signatures":S}` (and an optional newline): the layout `signRelease`
 * writes, where R is the very text a release key signs. R and S are parsed each on its own;
 * when both are whole JSON values, the document is what parsing it whole gives, and R's
 * bytes can be checked against a signature without writing the canonical JSON again.
 * Undefined for any other layout (the caller parses the whole text and writes the canonical
 * JSON). `S` is found by the last `,"signatures":` (inside a string its quotes would be escaped):
 * if that one is a key within S, the text before it is not one JSON value, and the layout is
 * refused, not misread.
 */
export function readLaidOutRelease(text: string, bytes: Uint8Array | undefined): LaidOutRelease | undefined {
  if (!text.startsWith(HEAD)) return undefined;
  const end = text.endsWith("}\n") ? text.length - 2 : text.endsWith("}") ? text.length - 1 : -1;
  const split = end < 0 ? -1 : text.lastIndexOf(SIGNATURES, end);
  if (split < HEAD.length) return undefined;
  const registryText = text.slice(HEAD.length, split);
  let registry: unknown;
  let signatures: unknown;
  try {
    registry = JSON.parse(registryText);
    signatures = JSON.parse(text.slice(split + SIGNATURES.length, end));
  } catch {
    return undefined;
  }
  return { document: { registry, signatures }, registryText, registryBytes: registryBytesOf(registryText, bytes) };
}

/**
 * The registry's bytes, cut from the document's own bytes (no copy) when they are laid out like its
 * text, with no byte order mark before the head: the text is their strict UTF-8 decoding, and an
 * ASCII pattern is found in UTF-8 at the same places as in the text it decodes to, so the last
 * `,"signatures":` of both ends the same registry. Otherwise the text is encoded.
 */
function registryBytesOf(registryText: string, bytes: Uint8Array | undefined): Uint8Array {
  if (bytes !== undefined && startsWith(bytes, HEAD_BYTES)) {
    const end = bytes.length - (bytes[bytes.length - 1] === 0x0a ? 2 : 1);
    const split = lastIndexOf(bytes, SIGNATURES_BYTES, end);
    if (split >= HEAD_BYTES.length) return bytes.subarray(HEAD_BYTES.length, split);
  }
  return utf8(registryText);
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

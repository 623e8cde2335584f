const HEAD = '{"registry":';
const SIGNATURES = ',"signatures":';
const HEAD_BYTES = Buffer.from(HEAD, "latin1");
const SIGNATURES_BYTES = Buffer.from(SIGNATURES, "latin1");

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
 * The registry's bytes, cut from the document's own bytes when they are laid out like its text
 * (no byte order mark before the head): an ASCII pattern is found in UTF-8 at the same places as
 * in the text it decodes to, so the last `,"signatures":` of both ends the same registry.
 */
function registryBytesOf(registryText: string, bytes: Uint8Array | undefined): Uint8Array {
  if (bytes !== undefined) {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (buffer.subarray(0, HEAD_BYTES.length).equals(HEAD_BYTES)) {
      const end = buffer.length - (buffer[buffer.length - 1] === 0x0a ? 2 : 1);
      const split = buffer.lastIndexOf(SIGNATURES_BYTES, end);
      const registryBytes = split >= HEAD_BYTES.length ? buffer.subarray(HEAD_BYTES.length, split) : undefined;
      if (registryBytes !== undefined && registryBytes.length === Buffer.byteLength(registryText, "utf8")) return registryBytes;
    }
  }
  return Buffer.from(registryText, "utf8");
}

import type { ServedCatalog } from "./catalog.js";

/** The served catalog's JSON bytes, and each entry's: every entry's bytes are a view of the catalog's. */
export interface CatalogBodies {
  readonly catalog: Buffer;
  readonly entries: readonly Buffer[];
}

/**
 * The bytes of `JSON.stringify(catalog)` and of `JSON.stringify(entry)` for each entry, assembled
 * from each manifest's canonical JSON (the registry made it to hash the manifest; `manifestJson(id)`
 * in the catalog's order) rather than serialising them all again. `hash` and `oauth_available` are
 * written after the manifest's own keys, which stay in RFC 8785 order. An entry's JSON stands in the
 * catalog's as it is, so all of them are written once, into one buffer, and each entry's bytes are
 * a view of it: one allocation and one copy of each manifest, instead of a buffer per entry and the
 * catalog copied from them again.
 */
export function catalogBodies(catalog: ServedCatalog, manifestJson: readonly Buffer[]): CatalogBodies {
  const head = `{"schema":${JSON.stringify(catalog.schema)},"hash":${JSON.stringify(catalog.hash)},"integrations":[`;
  // Each entry's own keys after the manifest's, closing its object: ASCII (a hex hash and a boolean).
  const tails = catalog.integrations.map(
    (entry) => `,"hash":${JSON.stringify(entry.hash)}${entry.oauth_available === undefined ? "" : `,"oauth_available":${entry.oauth_available}`}}`,
  );
  let total = head.length + Math.max(0, tails.length - 1) + "]}".length;
  tails.forEach((tail, index) => {
    // The canonical JSON of an object ends with its closing brace, which the tail writes again.
    total += (manifestJson[index] as Buffer).length - 1 + tail.length;
  });
  const bytes = Buffer.allocUnsafe(total);
  let offset = bytes.write(head, 0, "latin1");
  const entries = tails.map((tail, index) => {
    const json = manifestJson[index] as Buffer;
    if (index > 0) offset += bytes.write(",", offset, "latin1");
    const start = offset;
    bytes.set(json.subarray(0, json.length - 1), offset);
    offset += json.length - 1;
    offset += bytes.write(tail, offset, "latin1");
    return bytes.subarray(start, offset);
  });
  offset += bytes.write("]}", offset, "latin1");
  if (offset !== total) throw new Error(`the catalog's bytes came to ${offset}, not ${total}`);
  return { catalog: bytes, entries };
}

const encoder = new TextEncoder();

/** UTF-8 of `text`: TextEncoder writes a large string several times faster than Buffer.from here. */
export function utf8Buffer(text: string): Buffer {
  const bytes = encoder.encode(text);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

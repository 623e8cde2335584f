import type { ServedCatalog, ServedCatalogEntry } from "./catalog.js";

/**
 * The bytes of `JSON.stringify(catalog)`, assembled from each entry's own JSON bytes
 * (made once for `GET /registry/:id` anyway) rather than serialising them all again.
 */
export function catalogBody(catalog: ServedCatalog, entryBodies: readonly Buffer[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`{"schema":${JSON.stringify(catalog.schema)},"hash":${JSON.stringify(catalog.hash)},"integrations":[`, "utf8")];
  const comma = Buffer.from(",");
  entryBodies.forEach((body, index) => {
    if (index > 0) parts.push(comma);
    parts.push(body);
  });
  parts.push(Buffer.from("]}"));
  return Buffer.concat(parts);
}

/**
 * The JSON bytes of a served entry, from its manifest's canonical JSON (the registry made it to hash
 * the manifest): `hash` and `oauth_available` are written after the manifest's own keys, which stay in
 * RFC 8785 order. The same value as `JSON.stringify(entry)`, without serialising every manifest again.
 */
export function entryBody(manifestJson: Buffer, entry: ServedCatalogEntry): Buffer {
  const oauth = entry.oauth_available === undefined ? "" : `,"oauth_available":${entry.oauth_available}`;
  // The canonical JSON of an object ends with its closing brace.
  return Buffer.concat([manifestJson.subarray(0, manifestJson.length - 1), Buffer.from(`,"hash":${JSON.stringify(entry.hash)}${oauth}}`, "latin1")]);
}

const encoder = new TextEncoder();

/** UTF-8 of `text`: TextEncoder writes a large string several times faster than Buffer.from here. */
export function utf8Buffer(text: string): Buffer {
  const bytes = encoder.encode(text);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

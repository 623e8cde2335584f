import type { ServedCatalog } from "./catalog.js";

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

const encoder = new TextEncoder();

/** UTF-8 of `text`: TextEncoder writes a large string several times faster than Buffer.from here. */
export function utf8Buffer(text: string): Buffer {
  const bytes = encoder.encode(text);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

// Zod-free, so a browser bundle that renders chips (grants) does not carry zod.

/** A file decoded is at most 8 MiB. */
export const MAX_FILE_BYTES = 8 * 1024 * 1024;
/** The longest base64 text of a file at most MAX_FILE_BYTES decoded. */
export const MAX_FILE_BASE64_LENGTH = Math.ceil(MAX_FILE_BYTES / 3) * 4;

/** The decoded size of well-formed padded base64 text, without decoding it. */
export function base64DecodedLength(base64: string): number {
  const padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
  return (base64.length / 4) * 3 - padding;
}

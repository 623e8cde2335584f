import { base64DecodedLength } from "@eleven-integrations/schema";
import { sha256Hex } from "./sha256.js";

// How the chip shows a list or a file arg (issue 38). Zod-free: it runs in the member's browser.

/** A list arg's items, or a file arg's name and what is always shown after it. */
export type ArgDisplay = { kind: "text"; text: string } | { kind: "list"; items: string[] } | { kind: "file"; name: string; tail: string };

/** How many hex digits of a file's SHA-256 the chip shows. */
export const FILE_DIGEST_PREFIX = 12;

const BASE64_CHARACTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const BASE64_VALUE = new Int16Array(128).fill(-1);
for (let index = 0; index < BASE64_CHARACTERS.length; index += 1) BASE64_VALUE[BASE64_CHARACTERS.charCodeAt(index)] = index;

/**
 * What an arg's value shows as: a string as it is; a list's items; a file as its name and
 * `(size, sha256 <first 12 hex>)` of its decoded bytes, or `(stored file, sha256 <12 hex>)`
 * for a file named by digest. Throws a `TypeError` for any other value.
 */
export function argDisplay(name: string, value: unknown): ArgDisplay {
  if (typeof value === "string") return { kind: "text", text: value };
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return { kind: "list", items: value as string[] };
  if (value !== null && typeof value === "object") {
    const file = value as Record<string, unknown>;
    if (typeof file.name === "string" && typeof file.base64 === "string") {
      const bytes = decodeBase64(file.base64);
      if (bytes !== undefined)
        return { kind: "file", name: file.name, tail: ` (${sizeText(bytes.length)}, sha256 ${sha256Hex(bytes).slice(0, FILE_DIGEST_PREFIX)})` };
    } else if (typeof file.sha256 === "string" && /^[0-9a-f]{64}$/.test(file.sha256)) {
      return { kind: "file", name: "stored file", tail: ` (sha256 ${file.sha256.slice(0, FILE_DIGEST_PREFIX)})` };
    }
  }
  throw new TypeError(`renderConfirm: arg ${name} is not a string, a list of strings or a file`);
}

/** The whole value as one text, for the details beside the line: a list's items joined by ", ". */
export function wholeText(display: ArgDisplay): string {
  if (display.kind === "text") return display.text;
  if (display.kind === "list") return display.items.join(", ");
  return display.name + display.tail;
}

/** A byte count as people read it: `512 B`, `12.3 KiB`, `8.0 MiB`. */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** Standard padded base64 to bytes, or undefined when it is not that. */
function decodeBase64(text: string): Uint8Array | undefined {
  if (text.length % 4 !== 0) return undefined;
  const out = new Uint8Array(base64DecodedLength(text));
  let bits = 0;
  let buffer = 0;
  let at = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 0x3d) {
      if (index < text.length - 2) return undefined;
      continue;
    }
    const value = code < 128 ? (BASE64_VALUE[code] as number) : -1;
    if (value < 0) return undefined;
    buffer = ((buffer << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      if (at < out.length) out[at++] = (buffer >> bits) & 0xff;
    }
  }
  return at === out.length ? out : undefined;
}

import { GrantError } from "./grant-error.js";
import { asciiText } from "./text-bytes.js";

const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * Parses signed bytes as one JSON object. The caller then compares `text` with
 * the canonical serialisation of what it accepted, so a payload has exactly one
 * spelling (no duplicate keys, whitespace, or alternative escapes). Throws `malformed`.
 */
export function parseJsonObject(bytes: Uint8Array, what: string): { object: Record<string, unknown>; text: string } {
  let value: unknown;
  let text: string;
  try {
    text = asciiText(bytes) ?? decoder.decode(bytes);
    value = JSON.parse(text);
  } catch {
    throw new GrantError("malformed", `${what} is not UTF-8 JSON`);
  }
  if (!isPlainObject(value)) throw new GrantError("malformed", `${what} is not a JSON object`);
  return { object: value, text };
}

/** Refuses a payload whose bytes are not the canonical serialisation of what was read from them. */
export function requireCanonical(text: string, canonical: string, what: string): void {
  if (text !== canonical) throw new GrantError("malformed", `${what} is not RFC 8785 canonical JSON`);
}

/** A JSON object (not null, not an array). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Refuses a missing required key or any key outside `required` and `optional`. */
export function checkKeys(object: Record<string, unknown>, required: readonly string[], optional: readonly string[], what: string): void {
  for (const key in object) {
    if (!required.includes(key) && !optional.includes(key)) {
      throw new GrantError("malformed", `${what} has an unknown key`);
    }
  }
  for (const key of required) {
    if (!Object.hasOwn(object, key)) throw new GrantError("malformed", `${what} lacks \`${key}\``);
  }
}

import { canonicalJson } from "@eleven-integrations/schema";
import { GrantError } from "./grant-error.js";

const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * Parses signed bytes as one JSON object written in RFC 8785 canonical form,
 * so a payload has exactly one spelling (no duplicate keys, no whitespace, no
 * alternative escapes or number forms). Throws `malformed`.
 */
export function parseCanonicalObject(bytes: Uint8Array, what: string): Record<string, unknown> {
  let value: unknown;
  let text: string;
  try {
    text = decoder.decode(bytes);
    value = JSON.parse(text);
  } catch {
    throw new GrantError("malformed", `${what} is not UTF-8 JSON`);
  }
  if (!isPlainObject(value)) throw new GrantError("malformed", `${what} is not a JSON object`);
  if (canonicalJson(value) !== text) throw new GrantError("malformed", `${what} is not RFC 8785 canonical JSON`);
  return value;
}

/** A JSON object (not null, not an array). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Refuses a missing required key or any key outside `required` and `optional`. */
export function checkKeys(
  object: Record<string, unknown>,
  required: readonly string[],
  optional: readonly string[],
  what: string,
): void {
  for (const key of Object.keys(object)) {
    if (!required.includes(key) && !optional.includes(key)) {
      throw new GrantError("malformed", `${what} has an unknown key`);
    }
  }
  for (const key of required) {
    if (!Object.hasOwn(object, key)) throw new GrantError("malformed", `${what} lacks \`${key}\``);
  }
}

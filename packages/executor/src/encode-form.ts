import type { JsonValue } from "@eleven-integrations/schema";
import { encodeComponent } from "./encode-component.js";

/**
 * Encodes a rendered body as `application/x-www-form-urlencoded` the way Stripe reads
 * it: nested keys in brackets (`metadata[plan]=pro`), array items by index
 * (`items[0][price]=p_1`), brackets sent as written and everything else RFC
 * 3986-encoded. `null` sends an empty value; numbers and booleans their JSON text.
 */
export function encodeForm(body: JsonValue): string {
  const pairs: string[] = [];
  visit(body, "", pairs);
  return pairs.join("&");
}

function visit(value: JsonValue, key: string, pairs: string[]): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      visit(item, key === "" ? String(index) : `${key}[${index}]`, pairs);
    });
  } else if (value !== null && typeof value === "object") {
    for (const name of Object.keys(value)) {
      const encoded = encodeComponent(name);
      visit((value as Record<string, JsonValue>)[name] as JsonValue, key === "" ? encoded : `${key}[${encoded}]`, pairs);
    }
  } else if (key !== "") {
    pairs.push(`${key}=${value === null ? "" : encodeComponent(String(value))}`);
  }
}

/**
 * RFC 8785 (JSON Canonicalization Scheme) serialisation of a JSON value:
 * object keys sorted by UTF-16 code units, no whitespace, ECMAScript number
 * and string serialisation. Used for every content hash and digest.
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "number":
      if (!Number.isFinite(value)) throw new TypeError("canonicalJson: non-finite number");
      return JSON.stringify(value);
    case "string":
      return JSON.stringify(value);
    case "object": {
      if (Array.isArray(value)) {
        let out = "[";
        for (let index = 0; index < value.length; index += 1) out += (index === 0 ? "" : ",") + canonicalJson(value[index]);
        return `${out}]`;
      }
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record).sort();
      let out = "{";
      for (const key of keys) {
        const item = record[key];
        if (item === undefined) continue;
        out += `${out.length === 1 ? "" : ","}${JSON.stringify(key)}:${canonicalJson(item)}`;
      }
      return `${out}}`;
    }
    default:
      throw new TypeError(`canonicalJson: cannot serialise a ${typeof value}`);
  }
}

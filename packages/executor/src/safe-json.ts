import { MAX_PICK_DEPTH } from "@eleven-integrations/loader";

export class TooDeepError extends Error {
  constructor() {
    super(`the response nests deeper than ${MAX_PICK_DEPTH} levels`);
    this.name = "TooDeepError";
  }
}

/**
 * A copy of parsed JSON on null-prototype objects, refused past the same depth bound
 * as `pick`, so a body without `pick` can neither pollute a prototype nor overflow
 * the stack when it is serialised.
 */
export function safeJson(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== "object") return value;
  if (depth > MAX_PICK_DEPTH) throw new TooDeepError();
  if (Array.isArray(value)) {
    const out: unknown[] = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index += 1) out[index] = safeJson(value[index], depth + 1);
    return out;
  }
  // Not Object.create(null): V8 keeps that in dictionary mode, slower to fill and to serialise.
  const out = Object.setPrototypeOf({}, null) as Record<string, unknown>;
  for (const key of Object.keys(value)) out[key] = safeJson((value as Record<string, unknown>)[key], depth + 1);
  return out;
}

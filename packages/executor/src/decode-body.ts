import { PickError, type PickAccessor } from "@eleven-integrations/loader";
import { safeJson, TooDeepError } from "./safe-json.js";

/** A complete 2xx body, parsed once: empty, JSON (the raw parsed value) or text. */
export type ParsedBody =
  | { readonly ok: true; readonly kind: "empty" }
  | { readonly ok: true; readonly kind: "json"; readonly value: unknown }
  | { readonly ok: true; readonly kind: "text"; readonly text: string }
  | { readonly ok: false; readonly message: string };

export type ProjectBodyResult = { readonly ok: true; readonly data: unknown } | { readonly ok: false; readonly message: string };

/**
 * Parses a 2xx body. With `needsJson` (the op has a `pick`), the body must be JSON, by its
 * content type when it has one and by parsing; without, JSON is parsed and anything else
 * is text. A leading BOM is ignored.
 */
export function parseBody(bytes: Buffer, contentType: string | undefined, needsJson: boolean): ParsedBody {
  if (bytes.length === 0) return { ok: true, kind: "empty" };
  const mediaType = contentType?.split(";", 1)[0]?.trim().toLowerCase();
  const declaredJson = mediaType !== undefined && isJsonMediaType(mediaType);
  if (needsJson && mediaType !== undefined && !declaredJson) {
    return { ok: false, message: `the answer is ${describe(mediaType)}, not JSON` };
  }
  const text = bytes.toString("utf8");
  try {
    return { ok: true, kind: "json", value: JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) };
  } catch {
    if (!needsJson && !declaredJson) return { ok: true, kind: "text", text };
    return { ok: false, message: "the answer is not valid JSON" };
  }
}

/** The envelope's `data`: the picked value, or the whole answer copied onto null-prototype objects; `null` when empty. */
export function projectBody(parsed: Exclude<ParsedBody, { ok: false }>, pick: PickAccessor | undefined): ProjectBodyResult {
  if (parsed.kind === "empty") return { ok: true, data: null };
  if (parsed.kind === "text") return { ok: true, data: parsed.text };
  try {
    return { ok: true, data: pick === undefined ? safeJson(parsed.value) : pick(parsed.value) };
  } catch (error) {
    if (PickError.isInstance(error) || error instanceof TooDeepError) return { ok: false, message: error.message };
    throw error;
  }
}

/** Parses an error answer's body for the provider's words; undefined when it is not JSON. */
export function parseErrorBody(bytes: Buffer): unknown {
  if (bytes.length === 0) return undefined;
  const text = bytes.toString("utf8");
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return undefined;
  }
}

function isJsonMediaType(mediaType: string): boolean {
  return mediaType === "application/json" || mediaType === "text/json" || mediaType.endsWith("+json");
}

function describe(mediaType: string): string {
  return /^[\w.+-]+\/[\w.+-]+$/.test(mediaType) ? mediaType : "not labelled as JSON";
}

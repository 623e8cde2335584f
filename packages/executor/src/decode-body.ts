import { PickError, type PickAccessor } from "@eleven-integrations/loader";
import { safeJson, TooDeepError } from "./safe-json.js";

export type DecodeBodyResult = { readonly ok: true; readonly data: unknown } | { readonly ok: false; readonly message: string };

/**
 * Turns a complete 2xx body into the envelope's `data`. With `pick`, the body must be
 * JSON (by its content type when it has one, and by parsing) and comes back projected;
 * without, JSON comes back parsed and anything else as text. An empty body is `null`.
 */
export function decodeBody(bytes: Buffer, contentType: string | undefined, pick: PickAccessor | undefined): DecodeBodyResult {
  if (bytes.length === 0) return { ok: true, data: null };
  const mediaType = contentType?.split(";", 1)[0]?.trim().toLowerCase();
  const declaredJson = mediaType !== undefined && isJsonMediaType(mediaType);
  if (pick !== undefined && mediaType !== undefined && !declaredJson) {
    return { ok: false, message: `the answer is ${describe(mediaType)}, not JSON` };
  }
  const text = bytes.toString("utf8");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    if (pick === undefined && !declaredJson) return { ok: true, data: text };
    return { ok: false, message: "the answer is not valid JSON" };
  }
  try {
    return { ok: true, data: pick === undefined ? safeJson(parsed) : pick(parsed) };
  } catch (error) {
    if (PickError.isInstance(error) || error instanceof TooDeepError) return { ok: false, message: error.message };
    throw error;
  }
}

function isJsonMediaType(mediaType: string): boolean {
  return mediaType === "application/json" || mediaType === "text/json" || mediaType.endsWith("+json");
}

function describe(mediaType: string): string {
  return /^[\w.+-]+\/[\w.+-]+$/.test(mediaType) ? mediaType : "not labelled as JSON";
}

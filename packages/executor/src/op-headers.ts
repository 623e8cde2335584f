import type { CompiledOperation } from "@eleven-integrations/loader";
import type { ArgValues } from "./check-args.js";

export type OpHeadersResult =
  | { readonly ok: true; readonly headers: readonly (readonly [string, string])[] }
  | { readonly ok: false; readonly message: string };

/**
 * The op's own headers filled with the run's args; a value that would carry a control
 * character (CR, LF, NUL, any other) or a non-ASCII character into a text header refuses
 * the run, naming the arg and the header, never the value.
 */
export function renderOpHeaders(operation: CompiledOperation, args: ArgValues): OpHeadersResult {
  if (operation.opHeaders.length === 0) return NO_HEADERS;
  const headers: (readonly [string, string])[] = [];
  for (const header of operation.opHeaders) {
    const rendered = header.render(args);
    if (!rendered.ok) {
      const what =
        rendered.problem === "control_character"
          ? "a control character (CR, LF, NUL or another)"
          : rendered.problem === "not_text"
            ? "a list or a file, which has no text form"
            : "a character outside visible ASCII";
      return { ok: false, message: `{${rendered.arg}} cannot be sent in the ${rendered.name} header: it holds ${what}` };
    }
    if (rendered.value !== undefined) headers.push([rendered.name, rendered.value]);
  }
  return { ok: true, headers };
}

const NO_HEADERS: OpHeadersResult = Object.freeze({ ok: true, headers: Object.freeze([]) });

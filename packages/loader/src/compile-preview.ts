import { splitLine, splitTemplate, type ArgValue, type LinePart, type Preview, type TemplatePart } from "@eleven-integrations/schema";

/** What a missing or null picked field shows in a preview line. */
export const PREVIEW_NONE = "(none)";
/** The longest text one field puts in a preview line (the sidecar neutralises and shortens it further). */
export const MAX_PREVIEW_VALUE = 300;

export type RenderLineResult = { readonly ok: true; readonly line: string } | { readonly ok: false; readonly message: string };

/** A write's `preview`, compiled once at load. */
export interface CompiledPreview {
  /** The read op to run (same integration). */
  readonly op: string;
  /** The preview read's args from the write's checked args; a template naming an optional arg that was not given drops that arg. */
  args(writeArgs: Readonly<Record<string, ArgValue>>): Record<string, string>;
  /** The line split into literal text and picked-field placeholders. */
  readonly lineParts: readonly LinePart[];
  /**
   * Fills the line from the preview read's picked `data` (an object whose keys are the
   * picked fields). A string shows as it is, a number or boolean as its JSON text, an
   * object or array as its JSON text, a missing or null field as `(none)`; each value
   * passes through `value` (the sidecar's neutraliser) when given.
   */
  renderLine(data: unknown, value?: (text: string) => string): RenderLineResult;
  /** The declaration as written. */
  readonly declaration: Preview;
}

export function compilePreview(preview: Preview): CompiledPreview {
  const argTemplates = Object.entries(preview.args ?? {}).map(([name, template]) => [name, splitTemplate(template)] as const);
  const lineParts = Object.freeze(splitLine(preview.line).map((part) => Object.freeze(part)));
  return Object.freeze({
    op: preview.op,
    args: (writeArgs: Readonly<Record<string, ArgValue>>) => {
      const out = Object.create(null) as Record<string, string>;
      for (const [name, parts] of argTemplates) {
        const filled = fill(parts, writeArgs);
        if (filled !== undefined) out[name] = filled;
      }
      return out;
    },
    lineParts,
    renderLine: (data: unknown, value: (text: string) => string = (text) => text): RenderLineResult => {
      if (data === null || typeof data !== "object" || Array.isArray(data)) {
        return {
          ok: false,
          message: `the preview read ${preview.op} answered ${Array.isArray(data) ? "a list" : "no object"}, so its fields cannot fill the line`,
        };
      }
      let line = "";
      for (const part of lineParts) {
        line +=
          part.kind === "literal" ? part.text : value(fieldText(Object.hasOwn(data, part.path) ? (data as Record<string, unknown>)[part.path] : undefined));
      }
      return { ok: true, line };
    },
    declaration: preview,
  });
}

function fill(parts: readonly TemplatePart[], args: Readonly<Record<string, ArgValue>>): string | undefined {
  let out = "";
  for (const part of parts) {
    if (part.kind === "literal") out += part.text;
    else {
      const value = Object.hasOwn(args, part.name) ? args[part.name] : undefined;
      if (typeof value !== "string") return undefined;
      out += value;
    }
  }
  return out;
}

function fieldText(value: unknown): string {
  if (value === undefined || value === null) return PREVIEW_NONE;
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? PREVIEW_NONE);
  const points = Array.from(text);
  return points.length > MAX_PREVIEW_VALUE ? `${points.slice(0, MAX_PREVIEW_VALUE - 1).join("")}…` : text;
}

import {
  splitLine,
  splitTemplate,
  valueAtDotPath,
  type ArgValue,
  type LinePart,
  type LineSelect,
  type Preview,
  type TemplatePart,
} from "@eleven-integrations/schema";

/** What a missing or null picked field shows in a preview line. */
export const PREVIEW_NONE = "(none)";
/** The longest text one field puts in a preview line (the sidecar neutralises and shortens it further). */
export const MAX_PREVIEW_VALUE = 300;
/** How many elements of a picked list a selector (`transitions[id={transition_id}]`) looks through. */
export const MAX_SELECTED_SCAN = 1000;

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
  renderLine(data: unknown, value?: (text: string) => string, writeArgs?: Readonly<Record<string, ArgValue>>): RenderLineResult;
  /**
   * The picked `data` with each selector placeholder's value added under the placeholder's text
   * (`"transitions[id={transition_id}].to.name"`), selected with the write's args: the fields
   * grants' `renderPreview` fills the line from. `data` itself is not changed.
   */
  fields(data: Readonly<Record<string, unknown>>, writeArgs: Readonly<Record<string, ArgValue>>): Record<string, unknown>;
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
    fields: (data: Readonly<Record<string, unknown>>, writeArgs: Readonly<Record<string, ArgValue>>) => withSelected(lineParts, data, writeArgs),
    renderLine: (data: unknown, value: (text: string) => string = (text) => text, writeArgs = {}): RenderLineResult => {
      if (data === null || typeof data !== "object" || Array.isArray(data)) {
        return {
          ok: false,
          message: `the preview read ${preview.op} answered ${Array.isArray(data) ? "a list" : "no object"}, so its fields cannot fill the line`,
        };
      }
      const fields = withSelected(lineParts, data as Record<string, unknown>, writeArgs);
      let line = "";
      for (const part of lineParts) {
        line += part.kind === "literal" ? part.text : value(fieldText(Object.hasOwn(fields, part.path) ? fields[part.path] : undefined));
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

/** `data` with each selector's value under its placeholder's text; `data` itself when the line has no selector. */
function withSelected(
  parts: readonly LinePart[],
  data: Readonly<Record<string, unknown>>,
  writeArgs: Readonly<Record<string, ArgValue>>,
): Record<string, unknown> {
  let fields: Record<string, unknown> | undefined;
  for (const part of parts) {
    if (part.kind !== "field" || part.select === undefined) continue;
    fields ??= Object.assign(Object.create(null) as Record<string, unknown>, data);
    fields[part.path] = selected(data, part.select, writeArgs);
  }
  return fields ?? (data as Record<string, unknown>);
}

/**
 * The first element of the picked list `select.field` (own properties only) whose `select.key` equals the
 * write's arg `select.arg` (a number or boolean compared as its JSON text), then the dot-path `rest`; undefined
 * when the arg was not given, the field is no list, or no element matches.
 */
function selected(data: Readonly<Record<string, unknown>>, select: LineSelect, writeArgs: Readonly<Record<string, ArgValue>>): unknown {
  const wanted = Object.hasOwn(writeArgs, select.arg) ? writeArgs[select.arg] : undefined;
  const list = Object.hasOwn(data, select.field) ? data[select.field] : undefined;
  if (typeof wanted !== "string" || !Array.isArray(list)) return undefined;
  const scanned = Math.min(list.length, MAX_SELECTED_SCAN);
  for (let index = 0; index < scanned; index += 1) {
    const item: unknown = list[index];
    if (item === null || typeof item !== "object" || Array.isArray(item) || !Object.hasOwn(item, select.key)) continue;
    const key: unknown = (item as Record<string, unknown>)[select.key];
    const text = typeof key === "string" ? key : typeof key === "number" || typeof key === "boolean" ? JSON.stringify(key) : undefined;
    if (text !== wanted) continue;
    return select.rest === "" ? item : valueAtDotPath(item, select.rest.split("."));
  }
  return undefined;
}

function fieldText(value: unknown): string {
  if (value === undefined || value === null) return PREVIEW_NONE;
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? PREVIEW_NONE);
  const points = Array.from(text);
  return points.length > MAX_PREVIEW_VALUE ? `${points.slice(0, MAX_PREVIEW_VALUE - 1).join("")}…` : text;
}

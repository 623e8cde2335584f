import { neutraliseText, splitLine, splitTemplate, type ConfirmLinePart } from "@eleven-integrations/schema";
import { isolate } from "./confirm-text.js";
import { MAX_CONFIRM_LINE_CODE_POINTS, MAX_CONFIRM_VALUE_CODE_POINTS, MIN_CONFIRM_VALUE_CODE_POINTS } from "./limits.js";
import { neutraliseDelimiters, templateDelimiters, type TemplateDelimiters } from "./template-delimiters.js";

const ELLIPSIS = "\u2026";

/** How one arg fared in the line. */
export interface ShownArg {
  /** Code points shown as U+FFFD by `neutraliseText`, as `U+XXXX`. */
  hidden: string[];
  /** Cut in the line (to its 120 code points, or to its share of the line's bound). */
  shortened: boolean;
  /** Held a quote or bracket shown as U+FFFD, or one of the template's own symbols. */
  templateLookAlike: boolean;
}

export interface ConfirmLayout {
  text: string;
  parts: ConfirmLinePart[];
  /** Every arg the line shows, by name. */
  shown: Map<string, ShownArg>;
}

/** The arg's own string value, or undefined when not given; throws a `TypeError` for a value that is not a string. */
export function ownValue(args: Record<string, string>, name: string): string | undefined {
  // Own properties only: `{constructor}` must not render Object.prototype.constructor.
  if (!Object.hasOwn(args, name)) return undefined;
  const value: unknown = args[name];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw new TypeError(`renderConfirm: arg ${name} is not a string`);
  return value;
}

/** What a missing or null picked field shows in a preview line (the loader's `PREVIEW_NONE`). */
export const PREVIEW_NONE = "(none)";

/**
 * A picked field's value as a preview line shows it, as the loader's `renderLine`
 * does: a string as it is, anything else as its JSON text (a number, a boolean, an
 * object or array), a missing, inherited or null field as `(none)`.
 */
export function fieldValue(fields: Record<string, unknown>, path: string): string {
  const value = Object.hasOwn(fields, path) ? fields[path] : undefined;
  if (value === undefined || value === null) return PREVIEW_NONE;
  if (typeof value === "string") return value;
  return JSON.stringify(value) ?? PREVIEW_NONE;
}

/** Code points in `text` (a surrogate pair counts once). */
function codePointLength(text: string): number {
  let length = text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length -= 1;
        index += 1;
      }
    }
  }
  return length;
}

/** The first `count` code points of `text`. */
function firstCodePoints(text: string, count: number): string {
  let taken = 0;
  let end = 0;
  for (const character of text) {
    if (taken === count) break;
    end += character.length;
    taken += 1;
  }
  return text.slice(0, end);
}

/**
 * The largest per-value cap (from 120 down to 16 code points) at which the values
 * fit `budget` code points; 16 when even that does not fit.
 */
function valueCap(lengths: readonly number[], budget: number): number {
  const total = (cap: number) => lengths.reduce((sum, length) => sum + Math.min(length, cap), 0);
  if (total(MAX_CONFIRM_VALUE_CODE_POINTS) <= budget) return MAX_CONFIRM_VALUE_CODE_POINTS;
  let low = MIN_CONFIRM_VALUE_CODE_POINTS;
  let high = MAX_CONFIRM_VALUE_CODE_POINTS;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (total(middle) <= budget) low = middle;
    else high = middle - 1;
  }
  return low;
}

interface CompiledTemplate {
  /** The template's text neutralised, and its placeholders, in order. */
  pieces: ({ kind: "template"; text: string } | { kind: "arg"; name: string })[];
  delimiters: TemplateDelimiters;
  /** Code points of the template's own text. */
  literalLength: number;
}

// Templates come from manifests, a bounded set: each is compiled once. The cache is cleared
// when full rather than grown, so a caller passing ever new templates cannot exhaust memory.
const COMPILED_TEMPLATES = 512;
const compiled = new Map<string, CompiledTemplate>();

/** A confirm template's `{arg}` placeholders, or a preview line's `{picked.field}` ones. */
export type TemplateKind = "confirm" | "preview";

function split(kind: TemplateKind, template: string): ({ kind: "literal"; text: string } | { kind: "arg"; name: string })[] {
  if (kind === "confirm") return splitTemplate(template);
  return splitLine(template).map((part) => (part.kind === "field" ? { kind: "arg", name: part.path } : part));
}

function compiledTemplate(kind: TemplateKind, template: string): CompiledTemplate {
  const key = `${kind}:${template}`;
  const cached = compiled.get(key);
  if (cached !== undefined) return cached;
  const pieces: CompiledTemplate["pieces"] = [];
  const literals: string[] = [];
  let literalLength = 0;
  for (const piece of split(kind, template)) {
    if (piece.kind === "arg") {
      pieces.push(piece);
      continue;
    }
    literals.push(piece.text);
    const text = neutraliseText(piece.text).text;
    literalLength += Array.from(text).length;
    pieces.push({ kind: "template", text });
  }
  const result: CompiledTemplate = { pieces, delimiters: templateDelimiters(literals), literalLength };
  if (compiled.size >= COMPILED_TEMPLATES) compiled.clear();
  compiled.set(key, result);
  return result;
}

/**
 * Lays a confirm line out: the template's text neutralised; each value
 * neutralised (`neutraliseText`), its template look-alikes shown as U+FFFD,
 * cut so the whole line fits `MAX_CONFIRM_LINE_CODE_POINTS` (each value to at
 * most 120 code points, the longest cut first, none below 16), and isolated
 * when right-to-left. One pass: a value is never expanded again.
 */
export function layoutConfirm(template: string, args: Record<string, string>): ConfirmLayout {
  return layoutLine("confirm", template, (name) => ownValue(args, name));
}

/** `layoutConfirm` for a preview line (`{picked.field}` placeholders filled from `fields`, see `fieldValue`). */
export function layoutPreview(line: string, fields: Record<string, unknown>): ConfirmLayout {
  return layoutLine("preview", line, (path) => fieldValue(fields, path));
}

function layoutLine(kind: TemplateKind, template: string, valueFor: (name: string) => string | undefined): ConfirmLayout {
  const { pieces, delimiters, literalLength } = compiledTemplate(kind, template);
  const shown = new Map<string, ShownArg>();

  type Slot = { kind: "template"; text: string } | { kind: "value"; arg: string; text: string; length: number };
  const slots: Slot[] = [];
  let fixed = literalLength;
  for (const piece of pieces) {
    if (piece.kind === "template") {
      slots.push(piece);
      continue;
    }
    const value = valueFor(piece.name);
    if (value === undefined) continue;
    const neutralised = neutraliseText(value);
    const delimited = neutraliseDelimiters(neutralised.text, delimiters);
    const previous = shown.get(piece.name);
    shown.set(piece.name, {
      hidden: neutralised.hidden,
      shortened: previous?.shortened ?? false,
      templateLookAlike: delimited.lookAlike,
    });
    const length = codePointLength(delimited.text);
    if (length > 0 && isolate(delimited.text) !== delimited.text) fixed += 2;
    slots.push({ kind: "value", arg: piece.name, text: delimited.text, length });
  }

  const lengths = slots.flatMap((slot) => (slot.kind === "value" ? [slot.length] : []));
  const cap = valueCap(lengths, MAX_CONFIRM_LINE_CODE_POINTS - fixed);
  const parts: ConfirmLinePart[] = [];
  let text = "";
  for (const slot of slots) {
    if (slot.kind === "template") {
      if (slot.text !== "") parts.push({ kind: "template", text: slot.text });
      text += slot.text;
      continue;
    }
    let shownText = slot.text;
    if (slot.length > cap) {
      shownText = firstCodePoints(slot.text, cap - 1) + ELLIPSIS;
      const arg = shown.get(slot.arg);
      if (arg !== undefined) arg.shortened = true;
    }
    shownText = isolate(shownText);
    if (shownText === "") continue;
    parts.push({ kind: "value", text: shownText, arg: slot.arg });
    text += shownText;
  }
  return { text, parts, shown };
}

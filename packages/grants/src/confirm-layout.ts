import { neutraliseText, splitLine, splitTemplate, type ArgValue, type ConfirmLinePart } from "@eleven-integrations/schema";
import { argDisplay, type ArgDisplay } from "./arg-display.js";
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

/** The arg's own value as the chip shows it (text, a list's items, a file), or undefined when not given; throws a `TypeError` for any other value. */
export function ownDisplay(args: Readonly<Record<string, ArgValue>>, name: string): ArgDisplay | undefined {
  if (!Object.hasOwn(args, name)) return undefined;
  const value: unknown = args[name];
  return value === undefined ? undefined : argDisplay(name, value);
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
export function layoutConfirm(template: string, args: Readonly<Record<string, ArgValue>>): ConfirmLayout {
  return layoutLine("confirm", template, (name) => ownDisplay(args, name));
}

/** `layoutConfirm` for a preview line (`{picked.field}` placeholders filled from `fields`, see `fieldValue`). */
export function layoutPreview(line: string, fields: Record<string, unknown>): ConfirmLayout {
  return layoutLine("preview", line, (path) => ({ kind: "text", text: fieldValue(fields, path) }));
}

/** The words a cut list ends with: ` and 3 more`. */
function moreText(count: number): string {
  return ` and ${count} more`;
}

/**
 * A list's items joined by ", " in at most `cap` code points: every item, or the first ones
 * and "and N more" (N exact); when even the first item does not fit, it is cut (ending in U+2026).
 */
function cutList(items: readonly { text: string; length: number }[], cap: number): string {
  let used = 0;
  for (let count = 0; count < items.length; count += 1) {
    const item = items[count] as { text: string; length: number };
    const joined = used + (count > 0 ? 2 : 0) + item.length;
    const rest = items.length - count - 1;
    if (joined + (rest > 0 ? moreText(rest).length : 0) > cap) {
      if (count > 0)
        return (
          items
            .slice(0, count)
            .map((shown) => shown.text)
            .join(", ") + moreText(items.length - count)
        );
      const tail = moreText(items.length - 1);
      return firstCodePoints(item.text, Math.max(1, cap - tail.length - 1)) + ELLIPSIS + (items.length > 1 ? tail : "");
    }
    used = joined;
  }
  return items.map((shown) => shown.text).join(", ");
}

function layoutLine(kind: TemplateKind, template: string, valueFor: (name: string) => ArgDisplay | undefined): ConfirmLayout {
  const { pieces, delimiters, literalLength } = compiledTemplate(kind, template);
  const shown = new Map<string, ShownArg>();

  type Slot =
    | { kind: "template"; text: string }
    | { kind: "value"; arg: string; text: string; length: number; items?: { text: string; length: number }[]; tail?: string };
  const slots: Slot[] = [];
  let fixed = literalLength;
  for (const piece of pieces) {
    if (piece.kind === "template") {
      slots.push(piece);
      continue;
    }
    const display = valueFor(piece.name);
    if (display === undefined) continue;
    // Each list item, and a file's name, is neutralised on its own; a file's size and digest are the chip's own text.
    const texts = display.kind === "list" ? display.items : [display.kind === "text" ? display.text : display.name];
    const hidden: string[] = [];
    let lookAlike = false;
    const items = texts.map((text) => {
      const neutralised = neutraliseText(text);
      const delimited = neutraliseDelimiters(neutralised.text, delimiters);
      hidden.push(...neutralised.hidden);
      lookAlike ||= delimited.lookAlike;
      return { text: delimited.text, length: codePointLength(delimited.text) };
    });
    const previous = shown.get(piece.name);
    shown.set(piece.name, { hidden, shortened: previous?.shortened ?? false, templateLookAlike: lookAlike });
    const tail = display.kind === "file" ? display.tail : "";
    const text = items.map((item) => item.text).join(", ") + tail;
    const length = codePointLength(text);
    if (length > 0 && isolate(text) !== text) fixed += 2;
    const slot: Slot = { kind: "value", arg: piece.name, text, length };
    if (display.kind === "list") slot.items = items;
    if (display.kind === "file") slot.tail = tail;
    slots.push(slot);
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
      if (slot.items !== undefined) shownText = cutList(slot.items, cap);
      else if (slot.tail !== undefined) {
        // A file's size and digest always show: only its name is cut.
        const name = slot.text.slice(0, slot.text.length - slot.tail.length);
        shownText = firstCodePoints(name, Math.max(1, cap - codePointLength(slot.tail) - 1)) + ELLIPSIS + slot.tail;
      } else shownText = firstCodePoints(slot.text, cap - 1) + ELLIPSIS;
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

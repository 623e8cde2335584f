import { neutraliseText, type ArgValue, type ConfirmDetail, type ConfirmDetailFlag, type ConfirmLine } from "@eleven-integrations/schema";
import { wholeText } from "./arg-display.js";
import { layoutConfirm, layoutPreview, ownDisplay } from "./confirm-layout.js";
import { displayWholeValue } from "./confirm-text.js";
import { findLookAlike } from "./look-alike.js";

export type { ConfirmDetail, ConfirmDetailFlag, ConfirmLine, ConfirmLinePart } from "@eleven-integrations/schema";

/** Replaces every hidden character with U+FFFD, visibly (see `neutraliseText`). */
export function neutralise(text: string): string {
  return neutraliseText(text).text;
}

/**
 * The confirm line a person taps: `template` with each `{arg}` replaced, in one
 * pass (a value is never expanded again), by the arg's value as shown: controls,
 * format, bidi, zero-width, default-ignorable, private-use, unassigned and
 * blank-looking characters as U+FFFD; odd spaces as U+0020; more than three
 * combining marks on one base cut, the cut shown by one U+FFFD; a variation
 * selector only in an emoji variation sequence; every quotation mark (an
 * apostrophe between letters excepted) and every bracket like the template's
 * own as U+FFFD, so a value cannot close the template's quotes; a value holding
 * right-to-left letters wrapped in FSI … PDI; each value cut to 120 code points,
 * and further (longest first, to no less than 16) so the line is at most 600
 * (ending in U+2026 when cut). A placeholder whose arg was not given renders as
 * nothing. The template's own text is neutralised the same way and never cut.
 * The same inputs always give the same line.
 *
 * A list arg shows its items joined by ", ", each neutralised like a value; when they do not
 * fit the value's share of the line, the first ones and "and N more" (N exact). A file arg
 * shows its name, then `(size, sha256 <first 12 hex digits>)` of its decoded bytes, which are
 * never cut (`(sha256 …)` alone for a file named by its digest).
 */
export function renderConfirm(template: string, args: Readonly<Record<string, ArgValue>>): string {
  return layoutConfirm(template, args).text;
}

/**
 * `renderConfirm`'s line with its parts: the template's own text and each value
 * as shown, with the arg it came from, in order; `text` is the parts joined, the
 * exact line a member signs. For clients that draw values boxed, so that no
 * value can pose as the template's text.
 */
export function renderConfirmParts(template: string, args: Readonly<Record<string, ArgValue>>): ConfirmLine {
  const { text, parts } = layoutConfirm(template, args);
  return { text, parts };
}

/**
 * A write's preview line (`preview.line` of its manifest, `“{title}”, {comments}
 * comments, opened by {user.login}`), filled from the preview read's picked fields
 * (`fields`: the picked object, nested paths flattened as `pick` gives them, e.g.
 * `{ "user.login": "octocat" }`). Each value is shown exactly as a confirm value is
 * (hidden characters, quotes, brackets like the line's own, look-alike bound,
 * right-to-left isolation, at most 600 code points for the whole line); a string is
 * shown as it is, anything else as its JSON text, a missing or null field as `(none)`
 * (the loader's `renderLine` reads fields the same way, but passes each value through
 * a callback that cannot see the line: this applies the line's own rules too). The
 * line a member signs is the confirm line, a line feed, and this.
 */
export function renderPreview(line: string, fields: Record<string, unknown>): string {
  return layoutPreview(line, fields).text;
}

/** `renderPreview` with its parts (`arg` is the picked field's path), like `renderConfirmParts`. */
export function renderPreviewParts(line: string, fields: Record<string, unknown>): ConfirmLine {
  const { text, parts } = layoutPreview(line, fields);
  return { text, parts };
}

/**
 * What the member must read beside the line to know everything that will run:
 * every arg given that the line does not show (optional args), and every arg
 * the line shows only in part (cut), with hidden characters, with characters
 * that could pass for the template's delimiters, or with look-alike letters,
 * each with its whole value. In the order the args were given.
 */
export function confirmDetails(template: string, args: Readonly<Record<string, ArgValue>>): ConfirmDetail[] {
  const { shown } = layoutConfirm(template, args);
  const details: ConfirmDetail[] = [];
  for (const name of Object.keys(args)) {
    const display = ownDisplay(args, name);
    if (display === undefined) continue;
    const value = wholeText(display);
    const inLine = shown.get(name);
    const hidden = inLine?.hidden ?? neutraliseText(value).hidden;
    const lookAlike = findLookAlike(value);
    const flags: ConfirmDetailFlag[] = [];
    if (inLine === undefined) flags.push("not_in_line");
    else if (inLine.shortened) flags.push("shortened");
    if (hidden.length > 0) flags.push("hidden_characters");
    if (lookAlike !== undefined) flags.push(...lookAlike.flags);
    if (inLine?.templateLookAlike === true) flags.push("template_look_alike");
    if (flags.length === 0) continue;
    const detail: ConfirmDetail = { name, value: displayWholeValue(value), flags };
    if (lookAlike !== undefined) detail.scripts = lookAlike.scripts;
    if (hidden.length > 0) detail.hidden = hidden;
    if (lookAlike?.skeleton !== undefined) detail.skeleton = lookAlike.skeleton;
    if (lookAlike?.reads_as !== undefined) detail.reads_as = lookAlike.reads_as;
    details.push(detail);
  }
  return details;
}

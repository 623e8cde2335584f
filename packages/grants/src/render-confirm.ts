import { splitTemplate } from "@eleven-integrations/schema";
import { displayValue, displayWholeValue, neutraliseText } from "./confirm-text.js";
import { findLookAlike } from "./look-alike.js";

/** Why an arg is listed beside the confirm line. */
export type ConfirmDetailFlag = "not_in_line" | "shortened" | "hidden_characters" | "mixed_script" | "look_alike";

/** One arg the member should read beside the line: its whole value, shown the way the line shows values. */
export interface ConfirmDetail {
  name: string;
  /** The whole value, never cut; hidden characters shown as U+FFFD, right-to-left text isolated. */
  value: string;
  /** Why it is listed: not in the line (an optional arg), cut in the line, holding hidden characters, or look-alike letters. */
  flags: ConfirmDetailFlag[];
  /** With `mixed_script` or `look_alike`: the scripts of its letters. */
  scripts?: string[];
  /** With `hidden_characters`: the code points shown as U+FFFD or dropped, as `U+XXXX`. */
  hidden?: string[];
}

/** Replaces every hidden character with U+FFFD, visibly (see `neutraliseText`). */
export function neutralise(text: string): string {
  return neutraliseText(text).text;
}

function ownValue(args: Record<string, string>, name: string): string | undefined {
  // Own properties only: `{constructor}` must not render Object.prototype.constructor.
  if (!Object.hasOwn(args, name)) return undefined;
  const value: unknown = args[name];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw new TypeError(`renderConfirm: arg ${name} is not a string`);
  return value;
}

/**
 * The confirm line a person taps: `template` with each `{arg}` replaced, in one
 * pass (a value is never expanded again), by the arg's value as `displayValue`
 * shows it: controls, format, bidi, zero-width, default-ignorable, private-use,
 * unassigned and blank-looking characters as U+FFFD; odd spaces as U+0020; more
 * than three combining marks on one base cut, the cut shown by one U+FFFD; a
 * value holding right-to-left letters wrapped in FSI … PDI so it cannot reorder
 * the line; cut to 120 code points (ending in U+2026 when cut). A placeholder
 * whose arg was not given renders as nothing. The template's own text is
 * neutralised the same way. The same inputs always give the same line.
 */
export function renderConfirm(template: string, args: Record<string, string>): string {
  let line = "";
  for (const part of splitTemplate(template)) {
    if (part.kind === "literal") {
      line += neutralise(part.text);
      continue;
    }
    const value = ownValue(args, part.name);
    if (value !== undefined) line += displayValue(value).text;
  }
  return line;
}

/**
 * What the member must read beside the line to know everything that will run:
 * every arg given that the line does not show (optional args), and every arg
 * the line shows only in part (cut), with hidden characters, or with look-alike
 * letters, each with its whole value. In the order the args were given.
 */
export function confirmDetails(template: string, args: Record<string, string>): ConfirmDetail[] {
  const inLine = new Set<string>();
  for (const part of splitTemplate(template)) if (part.kind === "arg") inLine.add(part.name);
  const details: ConfirmDetail[] = [];
  for (const name of Object.keys(args)) {
    const value = ownValue(args, name);
    if (value === undefined) continue;
    const shown = displayValue(value);
    const lookAlike = findLookAlike(value);
    const flags: ConfirmDetailFlag[] = [];
    if (!inLine.has(name)) flags.push("not_in_line");
    else if (shown.shortened) flags.push("shortened");
    if (shown.hidden.length > 0) flags.push("hidden_characters");
    if (lookAlike !== undefined) flags.push(lookAlike.kind);
    if (flags.length === 0) continue;
    details.push({
      name,
      value: displayWholeValue(value),
      flags,
      ...(lookAlike === undefined ? {} : { scripts: lookAlike.scripts }),
      ...(shown.hidden.length === 0 ? {} : { hidden: shown.hidden }),
    });
  }
  return details;
}

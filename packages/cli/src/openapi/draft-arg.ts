import { MAX_MAX_LENGTH, type Arg } from "@eleven-integrations/schema";
import { valueRules, type Schema } from "./schema-shape.js";

/** Patterns for the spec formats a draft arg can say as a regular expression. */
const FORMAT_PATTERNS: Record<string, string> = {
  "date-time": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{1,9})?(?:Z|[+-][0-9]{2}:[0-9]{2})$",
  date: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
  uuid: "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$",
  email: "^[^@\\s]+@[^@\\s]+$",
};

const INTEGER_PATTERN = "^-?(?:0|[1-9][0-9]*)$";
const NATURAL_PATTERN = "^(?:0|[1-9][0-9]*)$";
const NUMBER_PATTERN = "^-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?$";

/** Manifest text refuses control, bidi and zero-width characters: keep a description plain and short. */
export function plainText(text: string, max: number): string {
  const cleaned = text
    .replace(/<[^>]*>/g, " ")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  const firstSentence = /^(.+?[.!?])(?:\s|$)/.exec(cleaned)?.[1] ?? cleaned;
  const chosen = [...firstSentence].length <= max ? firstSentence : cleaned;
  const chars = [...chosen];
  return chars.length <= max
    ? chosen
    : `${chars
        .slice(0, max - 1)
        .join("")
        .trimEnd()}…`;
}

export interface DraftArg {
  arg: Arg;
  /** What the maintainer should know about this arg (a pattern that could not be said, say). */
  notes: string[];
}

/** An arg as tight as the spec's rules for the value: enum, maxLength, pattern (or one made from the format or type). */
export function draftArg(name: string, schema: Schema, required: boolean, description: unknown): DraftArg {
  const rules = valueRules(schema);
  const notes: string[] = [];
  const arg: Arg = {};
  if (required) arg.required = true;
  const text =
    typeof description === "string" && description.trim() !== ""
      ? plainText(description, 200)
      : typeof schema.description === "string"
        ? plainText(schema.description, 200)
        : "";
  if (text !== "") arg.description = text;
  if (rules.enum !== undefined && rules.enum.length > 0) {
    arg.enum = rules.enum.filter((value) => [...value].length <= MAX_MAX_LENGTH);
    const longest = Math.max(...arg.enum.map((value) => [...value].length));
    if (longest > 256) arg.max_length = Math.min(longest, MAX_MAX_LENGTH);
    return { arg, notes };
  }
  if (rules.types.length > 0 && rules.types.every((type) => type === "boolean")) {
    arg.enum = ["true", "false"];
    return { arg, notes };
  }
  if (rules.maxLength !== undefined) arg.max_length = Math.max(1, Math.min(rules.maxLength, MAX_MAX_LENGTH));
  let pattern: string | undefined;
  if (rules.pattern !== undefined) {
    try {
      new RegExp(rules.pattern, "u");
      pattern = rules.pattern;
    } catch {
      notes.push(`arg ${name}: the spec's pattern ${rules.pattern} is not valid with the u flag; write one by hand`);
    }
  } else if (rules.types.length > 0 && rules.types.every((type) => type === "integer")) {
    pattern = rules.minimum !== undefined && rules.minimum >= 0 ? NATURAL_PATTERN : INTEGER_PATTERN;
  } else if (rules.types.length > 0 && rules.types.every((type) => type === "integer" || type === "number")) {
    pattern = NUMBER_PATTERN;
  } else if (rules.format !== undefined && FORMAT_PATTERNS[rules.format] !== undefined) {
    pattern = FORMAT_PATTERNS[rules.format];
  }
  if (pattern !== undefined) arg.pattern = pattern;
  else if (rules.maxLength === undefined)
    notes.push(`arg ${name}: the spec gives no length or pattern; constrain it (an id wants a pattern, free text a max_length)`);
  return { arg, notes };
}

/** A spec parameter or property name as an arg name (`calendarId` -> `calendar_id`). */
export function argName(name: string): string {
  const snake = name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toLowerCase();
  return /^[a-z]/.test(snake) ? snake : `p_${snake}`;
}

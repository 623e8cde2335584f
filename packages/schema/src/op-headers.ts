import { z } from "zod";
import { headerNameProblem } from "./headers.js";
import { placeholderNames } from "./placeholders.js";
import { problemCheck, type IssueSink } from "./rule-checks.js";

/** A header template's literal text: visible ASCII, space and tab (the filled value is checked again at run time). */
const TEMPLATE_TEXT = /^[\t\x20-\x7e]*$/;

/**
 * An op's own request headers (Dropbox-API-Arg, Idempotency-Key): name to a template whose
 * `{arg}` placeholders name declared args. A template that is JSON (an object or array, its
 * placeholders inside strings) renders like a body leaf and is sent as ASCII-only JSON;
 * any other is text with the values put in as they are. The executor's own, auth and
 * hop-by-hop headers are refused, whatever their case.
 */
export const opHeadersSchema = z.record(
  z.string().check(problemCheck(headerNameProblem)),
  z
    .string()
    .min(1)
    .max(2048)
    .check(
      problemCheck((value: string) => {
        if (!TEMPLATE_TEXT.test(value)) return "must be visible ASCII text: no CR, LF, NUL or other control characters";
        if (value !== value.trim()) return "must not start or end with whitespace";
        return undefined;
      }),
    ),
);

export type OpHeaders = z.infer<typeof opHeadersSchema>;

/** Whether a header template is a JSON template: it parses as a JSON object or array. */
export function isJsonHeaderTemplate(value: string): boolean {
  const first = value[0];
  if (first !== "{" && first !== "[") return false;
  try {
    const parsed: unknown = JSON.parse(value);
    return parsed !== null && typeof parsed === "object";
  } catch {
    return false;
  }
}

/** Header names unique regardless of case, and every placeholder naming a declared arg. */
export function opHeaderRules(headers: OpHeaders, args: Readonly<Record<string, unknown>>, issue: IssueSink): void {
  const seen = new Map<string, string>();
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    const first = seen.get(lower);
    if (first !== undefined) issue(["headers", name], `duplicates header "${first}" (names are case-insensitive)`);
    else seen.set(lower, name);
    for (const placeholder of placeholderNames(value)) {
      if (!Object.hasOwn(args, placeholder)) issue(["headers", name], `placeholder {${placeholder}} names no declared arg`);
    }
  }
}

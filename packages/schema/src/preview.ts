import { z } from "zod";
import { plainTextProblem } from "./plain-text.js";

const OP_ID = /^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/;
const ARG_NAME = /^[a-z][a-z0-9_]*$/;

/** A placeholder of a preview line: `{title}` or a dot-path of a picked field, `{user.login}`. */
export const LINE_PLACEHOLDER = /\{([A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*)\}/g;

export type LinePart = { kind: "literal"; text: string } | { kind: "field"; path: string };

/** Splits a preview line into literal text and picked-field placeholders, once, at load. */
export function splitLine(line: string): LinePart[] {
  const parts: LinePart[] = [];
  let last = 0;
  for (const match of line.matchAll(LINE_PLACEHOLDER)) {
    if (match.index > last) parts.push({ kind: "literal", text: line.slice(last, match.index) });
    parts.push({ kind: "field", path: match[1] as string });
    last = match.index + match[0].length;
  }
  if (last < line.length) parts.push({ kind: "literal", text: line.slice(last) });
  return parts;
}

/**
 * `preview` on a write: a read of the same manifest (`op`) run with `args` (each one of the
 * read's args, as a template over the write's args, `{ "issue_number": "{issue_number}" }`),
 * whose picked answer fills `line` (`“{title}”, {comments} comments, opened by {user.login}`).
 * Which op and args exist is checked with the whole manifest (see manifestSchema).
 */
export const previewSchema = z.strictObject({
  op: z.string().regex(OP_ID, "must name a read op of this manifest (namespace.verb)"),
  args: z.record(z.string().regex(ARG_NAME, "must name one of the preview op's args"), z.string().min(1).max(500)).optional(),
  line: z
    .string()
    .max(500)
    .superRefine((line, context) => {
      const problem = plainTextProblem(line);
      if (problem !== undefined) context.addIssue({ code: "custom", message: problem });
      if (line.trim().length === 0) context.addIssue({ code: "custom", message: "must not be empty" });
      else if (splitLine(line).every((part) => part.kind === "literal")) {
        context.addIssue({ code: "custom", message: "must show at least one picked field of the preview op ({title}); a line with none previews nothing" });
      }
    }),
});

export type Preview = z.infer<typeof previewSchema>;

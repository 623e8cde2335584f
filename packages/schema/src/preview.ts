import { z } from "zod";
import { plainTextProblem } from "./plain-text.js";
import { splitLine } from "./preview-line.js";
import { OP_ID_PATTERN } from "./patterns.js";
import { rulesCheck } from "./rule-checks.js";

const ARG_NAME = /^[a-z][a-z0-9_]*$/;

/**
 * `preview` on a write: a read of the same manifest (`op`) run with `args` (each one of the
 * read's args, as a template over the write's args, `{ "issue_number": "{issue_number}" }`),
 * whose picked answer fills `line` (`“{title}”, {comments} comments, opened by {user.login}`).
 * Which op and args exist is checked with the whole manifest (see manifestSchema).
 */
export const previewSchema = z.strictObject({
  op: z.string().regex(OP_ID_PATTERN, "must name a read op of this manifest (namespace.verb)"),
  args: z.record(z.string().regex(ARG_NAME, "must name one of the preview op's args"), z.string().min(1).max(500)).optional(),
  line: z
    .string()
    .max(500)
    .check(
      rulesCheck((line: string, issue) => {
        const problem = plainTextProblem(line);
        if (problem !== undefined) issue([], problem);
        if (line.trim().length === 0) issue([], "must not be empty");
        else if (splitLine(line).every((part) => part.kind === "literal")) {
          issue([], "must show at least one picked field of the preview op ({title}); a line with none previews nothing");
        }
      }),
    ),
});

export type Preview = z.infer<typeof previewSchema>;

import { z } from "zod";
import { dotPathProblem } from "./dot-path.js";
import { OP_ID_PATTERN } from "./patterns.js";
import { problemCheck } from "./rule-checks.js";

const ARG_NAME = /^[a-z][a-z0-9_]*$/;
/** A query key as the provider writes it: URL-safe, brackets allowed (`page[after]`). */
const QUERY_KEY = /^[A-Za-z0-9_.~[\]-]{1,64}$/;

const dotPath = z.string().check(problemCheck(dotPathProblem));
const arg = z.string().regex(ARG_NAME, "must name one of the op's args");
/** Another read of the same manifest that takes the cursor in its own `page.arg` (Dropbox `files/list_folder/continue`). */
const nextOp = z.string().regex(OP_ID_PATTERN, "must name a read op of this manifest (namespace.verb)");
/**
 * A top-level key of the answer, named as written: for a key a dot-path cannot name, such
 * as Microsoft Graph's `@odata.nextLink` (it starts with `@` and holds a `.`). Printable
 * ASCII; never a prototype key (the key is read as an own property either way).
 */
const TOP_KEY = /^(?!(?:__proto__|constructor|prototype)$)[\x21-\x7e]{1,64}$/;
const topKey = z
  .string()
  .regex(TOP_KEY, "must be a top-level key of the answer as written: 1 to 64 printable ASCII characters, not __proto__, constructor or prototype");
/** A path from the origin on: literal segments, or `*` for exactly one segment. */
const LINK_PATH = /^(?:\/(?:[A-Za-z0-9._~-]+|\*))+$/;

/**
 * How a list op pages. `arg` is the op's (optional) arg that carries the cursor; the
 * next cursor comes from
 * - `link`: the `Link` header's rel="next" URL, its `query_key` value, only when that URL
 *   has the request's origin and path (GitHub, GitLab, Gandi), or a path listed in
 *   `link_paths` (the same list under another name: GitHub answers a request for
 *   `/repos/octocat/Spoon-Knife/issues` with links to `/repositories/1300192/issues`);
 * - `body`: the value at `cursor` in the answer, when it is a non-empty string or a number
 *   and (with `more`) the value at `more` is `true` (Slack, Notion, Google, Linear, Todoist);
 * - `last_item`: the `key` of the last item of the array at `items` (the body itself when
 *   absent), when the value at `more` is `true` (Stripe).
 * - `next_path`: the value at `path` in the answer, a path (or same-origin URL) under
 *   `auth.base` that is fetched as it is for the next page (Salesforce `nextRecordsUrl`),
 *   when it is a non-empty string and (with `more`) the value at `more` is `true`. Instead of
 *   `path`, `top_key` names a top-level key of the answer as written, for one a dot-path cannot
 *   name (Microsoft Graph's `@odata.nextLink`); exactly one of the two is given.
 * Paths are read in the raw answer, before `pick`.
 *
 * - `offset`: the next offset is the request's offset (`arg`, 0 when not given) plus the items
 *   the answer returned, at `items` (the body itself when absent);
 * - `page`: the next page number is the request's (`arg`, `first` when not given, 1 by default)
 *   plus one.
 *   Both stop on an empty page, on fewer items than the page size (the request's `limit_arg`
 *   value, or `limit`, the size fixed in the path), when the value at `more` is not `true`,
 *   when the value at `last` is `true` (Jira's `isLast`), when the items seen reach the number
 *   at `total`, or (pages) when the page sent reaches the number at `total_pages`. Declare
 *   `limit` only where the provider gives no such signal: a documented page may be short.
 *
 * `next_op` (with `link`, `body` or `last_item`) names another read of the same manifest
 * that takes the cursor in its own `page.arg`: the page token then runs that op, and
 * `arg` is left out (the op itself takes no cursor).
 */
export const pagingSchema = z.discriminatedUnion("from", [
  z.strictObject({
    from: z.literal("link"),
    arg: arg.optional(),
    query_key: z.string().regex(QUERY_KEY, "must be a URL query key"),
    link_paths: z
      .array(z.string().max(512).regex(LINK_PATH, 'must be a path of literal segments and "*" (one segment), such as /repositories/*/issues'))
      .min(1)
      .max(4)
      .optional(),
    next_op: nextOp.optional(),
  }),
  z.strictObject({ from: z.literal("body"), arg: arg.optional(), cursor: dotPath, more: dotPath.optional(), next_op: nextOp.optional() }),
  z.strictObject({ from: z.literal("last_item"), arg: arg.optional(), items: dotPath.optional(), key: dotPath, more: dotPath, next_op: nextOp.optional() }),
  z.strictObject({
    from: z.literal("offset"),
    arg,
    limit_arg: arg.optional(),
    limit: z.number().int().min(1).max(10000).optional(),
    items: dotPath.optional(),
    more: dotPath.optional(),
    last: dotPath.optional(),
    total: dotPath.optional(),
  }),
  z.strictObject({
    from: z.literal("page"),
    arg,
    limit_arg: arg.optional(),
    limit: z.number().int().min(1).max(10000).optional(),
    first: z.number().int().min(0).max(1).optional(),
    items: dotPath.optional(),
    more: dotPath.optional(),
    last: dotPath.optional(),
    total: dotPath.optional(),
    total_pages: dotPath.optional(),
  }),
  z.strictObject({ from: z.literal("next_path"), path: dotPath.optional(), top_key: topKey.optional(), more: dotPath.optional() }),
]);

export type Paging = z.infer<typeof pagingSchema>;

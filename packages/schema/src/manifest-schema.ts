import { z } from "zod";
import { baseUrlProblem } from "./base-url.js";
import { dotPathProblem } from "./dot-path.js";
import { headerNameProblem, headerValueProblem } from "./headers.js";
import { parsePathTemplate } from "./path-template.js";
import { pagingSchema } from "./paging.js";
import { oauthSchema } from "./oauth-schema.js";
import { placeholderNames } from "./placeholders.js";
import { plainTextProblem } from "./plain-text.js";
import { providerErrorsSchema } from "./provider-errors.js";

const ID = /^[a-z][a-z0-9-]*$/;
const OP_ID = /^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/;
const ARG_NAME = /^[a-z][a-z0-9_]*$/;
const AUTH_SCHEME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export const DEFAULT_MAX_LENGTH = 256;
export const MAX_MAX_LENGTH = 4096;

/** A problem found by a check, reported at its own path. */
function check<T>(problem: (value: T) => string | undefined) {
  return (value: T, context: z.RefinementCtx) => {
    const message = problem(value);
    if (message !== undefined) context.addIssue({ code: "custom", message });
  };
}

/** Text a person reads (names, labels, confirm lines, help): plain, see `plainTextProblem`. */
const plainText = (max: number) => z.string().max(max).superRefine(check(plainTextProblem));

const text = (max: number) => plainText(max).refine((value) => value.trim().length > 0, "must not be empty");

const dotPath = z.string().superRefine(check(dotPathProblem));

export const argSchema = z.strictObject({
  required: z.boolean().optional(),
  description: plainText(500).optional(),
  max_length: z.number().int().min(1).max(MAX_MAX_LENGTH).optional(),
  pattern: z
    .string()
    .min(1)
    .superRefine(
      check((pattern: string) => {
        try {
          new RegExp(pattern, "u");
          return undefined;
        } catch (error) {
          return `is not a valid regular expression with the u flag: ${(error as Error).message}`;
        }
      }),
    )
    .optional(),
  enum: z.array(z.string()).min(1).optional(),
});

export const pickSchema = z
  .strictObject({
    root: dotPath.optional(),
    fields: z.array(dotPath).optional(),
  })
  .superRefine(
    check((pick) => (pick.root === undefined && (pick.fields ?? []).length === 0 ? "needs a root or at least one field" : undefined)),
  );

const jsonBody = z.union([z.record(z.string(), z.json()), z.array(z.json())]);

export const operationSchema = z
  .strictObject({
    id: z.string().regex(OP_ID, "must be namespace.verb (lowercase letters, digits, _)"),
    label: text(200),
    access: z.enum(["read", "write"]),
    method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]),
    path: z.string().max(2048).superRefine((path, context) => {
      const result = parsePathTemplate(path);
      if (!result.ok) for (const message of result.problems) context.addIssue({ code: "custom", message });
    }),
    args: z.record(z.string().regex(ARG_NAME, "arg names are [a-z][a-z0-9_]*"), argSchema).optional(),
    body_json: jsonBody.optional(),
    encoding: z.enum(["json", "form"]).optional(),
    confirm: text(500).optional(),
    /**
     * The op destroys, closes, cancels or commits to something that is hard to
     * undo (a delete, a close, a registration that costs money). Agents are told
     * so (MCP `destructiveHint`). Absent: not marked, as in the first release.
     */
    destructive: z.boolean().optional(),
    pick: pickSchema.optional(),
    page: pagingSchema.optional(),
  })
  .superRefine((operation, context) => {
    const args = operation.args ?? {};
    const issue = (path: PropertyKey[], message: string) => context.addIssue({ code: "custom", path, message });
    if (operation.access === "write" && operation.confirm === undefined) issue(["confirm"], "every write needs a confirm line");
    if (operation.destructive === true && operation.access !== "write") issue(["destructive"], "only a write can be destructive");
    if (operation.method === "GET" && operation.body_json !== undefined) issue(["body_json"], "a GET op carries no body");
    if (operation.encoding === "form" && operation.body_json !== undefined && Array.isArray(operation.body_json)) {
      issue(["body_json"], "a form body must be an object");
    }
    const template = parsePathTemplate(operation.path);
    if (template.ok) {
      for (const segment of template.template.segments) {
        if (segment.kind !== "arg") continue;
        const arg = args[segment.name];
        if (arg === undefined) issue(["path"], `placeholder {${segment.name}} names no declared arg`);
        else if (arg.required !== true) issue(["args", segment.name, "required"], `{${segment.name}} fills a path segment, so it must be required`);
      }
      for (const pair of template.template.query) {
        if (pair.value.kind === "arg" && args[pair.value.name] === undefined) {
          issue(["path"], `placeholder {${pair.value.name}} names no declared arg`);
        }
      }
    }
    if (operation.confirm !== undefined) {
      const shown = new Set(placeholderNames(operation.confirm));
      for (const name of shown) {
        if (args[name] === undefined) issue(["confirm"], `placeholder {${name}} names no declared arg`);
      }
      if (operation.access === "write") {
        for (const [name, arg] of Object.entries(args)) {
          if (arg.required === true && !shown.has(name)) {
            issue(
              ["confirm"],
              `leaves out the required arg {${name}}: a write's confirm line must show every required value it sends, so the member sees what they approve (add {${name}} to the line)`,
            );
          }
        }
      }
    }
    if (operation.body_json !== undefined) {
      forEachStringLeaf(operation.body_json, ["body_json"], (leaf, path) => {
        for (const name of placeholderNames(leaf)) {
          if (args[name] === undefined) issue(path, `placeholder {${name}} names no declared arg`);
        }
      });
    }
    if (operation.page !== undefined) pagingProblems(operation, template.ok ? template.template.query : [], issue);
    for (const [name, arg] of Object.entries(args)) {
      const maxLength = arg.max_length ?? DEFAULT_MAX_LENGTH;
      arg.enum?.forEach((value, index) => {
        if ([...value].length > maxLength) issue(["args", name, "enum", index], `is longer than max_length ${maxLength}`);
      });
    }
  });

export const authSchema = z
  .strictObject({
    kind: z.enum(["pat", "oauth", "both"]),
    base: z.string().max(512).regex(/^https:\/\//, "must be an https URL").superRefine(check(baseUrlProblem)),
    authorization: z.string().regex(AUTH_SCHEME, 'must be an HTTP auth scheme token (such as "Bearer") or "none"'),
    headers: z
      .record(z.string().superRefine(check(headerNameProblem)), z.string().max(1024).superRefine(check(headerValueProblem)))
      .optional(),
    pat_help: text(1000).optional(),
    oauth: oauthSchema.optional(),
  })
  .superRefine((auth, context) => {
    const issue = (path: PropertyKey[], message: string) => context.addIssue({ code: "custom", path, message });
    const usesPat = auth.kind === "pat" || auth.kind === "both";
    const usesOauth = auth.kind === "oauth" || auth.kind === "both";
    if (usesPat && auth.pat_help === undefined) issue(["pat_help"], `is required when kind is "${auth.kind}"`);
    if (usesOauth && auth.oauth === undefined) issue(["oauth"], `is required when kind is "${auth.kind}"`);
    if (!usesOauth && auth.oauth !== undefined) issue(["oauth"], `must be absent when kind is "${auth.kind}"`);
    const seen = new Map<string, string>();
    for (const name of Object.keys(auth.headers ?? {})) {
      const lower = name.toLowerCase();
      const first = seen.get(lower);
      if (first !== undefined) issue(["headers", name], `duplicates header "${first}" (names are case-insensitive)`);
      else seen.set(lower, name);
    }
  });

export const manifestSchema = z
  .strictObject({
    $schema: z.string().optional(),
    schema: z.literal(1),
    id: z.string().max(40, "must be at most 40 characters").regex(ID, "must be a lowercase slug [a-z][a-z0-9-]*"),
    name: text(80),
    category: text(40),
    auth: authSchema,
    errors: providerErrorsSchema.optional(),
    ops: z.array(operationSchema).min(1, "needs at least one op"),
  })
  .superRefine((manifest, context) => {
    const seen = new Set<string>();
    manifest.ops.forEach((operation, index) => {
      if (seen.has(operation.id)) {
        context.addIssue({ code: "custom", path: ["ops", index, "id"], message: `duplicates op id "${operation.id}"` });
      }
      seen.add(operation.id);
    });
  });

export type Manifest = z.infer<typeof manifestSchema>;
export type Auth = z.infer<typeof authSchema>;
export type { OAuthSettings } from "./oauth-schema.js";
export type Operation = z.infer<typeof operationSchema>;
export type Arg = z.infer<typeof argSchema>;
export type Pick = z.infer<typeof pickSchema>;
export type Access = Operation["access"];
export type Method = Operation["method"];
export type JsonValue = z.infer<typeof z.json>;

/** The cursor arg of a paging op is one of its optional args, placed in a query value or a body leaf; only reads page. */
function pagingProblems(
  operation: { access: string; args?: Record<string, { required?: boolean | undefined }> | undefined; page?: { arg: string } | undefined; body_json?: unknown },
  query: readonly { value: { kind: string; name?: string } }[],
  issue: (path: PropertyKey[], message: string) => void,
): void {
  const name = operation.page?.arg as string;
  if (operation.access !== "read") issue(["page"], "only a read op pages");
  const arg = operation.args?.[name];
  if (arg === undefined) {
    issue(["page", "arg"], `names no declared arg ("${name}")`);
    return;
  }
  if (arg.required === true) issue(["args", name, "required"], `carries the page cursor, so it must be optional (the first page has none)`);
  let placed = query.some((pair) => pair.value.kind === "arg" && pair.value.name === name);
  if (!placed && operation.body_json !== undefined) {
    forEachStringLeaf(operation.body_json, [], (leaf) => {
      if (leaf === `{${name}}`) placed = true;
    });
  }
  if (!placed) issue(["page", "arg"], `{${name}} must fill a query value or a whole body leaf, where the cursor is sent`);
}

function forEachStringLeaf(value: unknown, path: PropertyKey[], visit: (leaf: string, path: PropertyKey[]) => void): void {
  if (typeof value === "string") visit(value, path);
  else if (Array.isArray(value)) value.forEach((item, index) => forEachStringLeaf(item, [...path, index], visit));
  else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) forEachStringLeaf(item, [...path, key], visit);
  }
}

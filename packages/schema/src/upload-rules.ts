import { z } from "zod";
import { placeholderNames } from "./placeholders.js";
import type { IssueSink } from "./rule-checks.js";

/** `type/subtype` with optional `; key=value` parameters, visible ASCII only. */
export const bytesContentType = z
  .string()
  .max(255)
  .regex(
    /^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+(?:; ?[A-Za-z0-9!#$&^_.+-]+=[A-Za-z0-9!#$&^_.+-]+)*$/,
    "must be a media type such as application/octet-stream",
  );

const PART_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** One part of a multipart body: a JSON template (its args filled as in `body_json`) or a file arg, by name. */
export const multipartPartSchema = z.strictObject({
  /** The form field's name (`form-data` only). */
  name: z.string().regex(PART_NAME, "must be 1-64 of [A-Za-z0-9_.-]").optional(),
  json: z.union([z.record(z.string(), z.json()), z.array(z.json()), z.string()]).optional(),
  /** The name of the op's `type: "file"` arg this part carries. */
  file: z.string().optional(),
});

/** `ops[].multipart`: `related` (metadata JSON, then the file: Google Drive) or `form-data` (named fields, one file). */
export const multipartSchema = z.strictObject({
  kind: z.enum(["form-data", "related"]),
  parts: z.array(multipartPartSchema).min(1).max(20),
});
export type Multipart = z.infer<typeof multipartSchema>;

interface UploadArg {
  readonly type?: string | undefined;
}

interface UploadOperation {
  readonly method: string;
  readonly encoding?: string | undefined;
  readonly body_json?: unknown;
  readonly multipart?: Multipart | undefined;
  readonly content_type?: string | undefined;
  readonly args?: Readonly<Record<string, UploadArg>> | undefined;
}

/**
 * `bytes`: the one file arg's bytes are the body (no `body_json`, no `multipart`).
 * `multipart`: the body is `multipart`'s parts (no `body_json`); exactly one part carries a file,
 * naming a file arg; `related` is a JSON part then the file part; `form-data` names every part.
 */
export function uploadRules(operation: UploadOperation, issue: IssueSink): void {
  const args = operation.args ?? {};
  const fileArgs = Object.keys(args).filter((name) => args[name]?.type === "file");
  const encoding = operation.encoding;
  if (encoding !== "multipart" && operation.multipart !== undefined) issue(["multipart"], 'only an op with encoding "multipart" has parts');
  if (encoding !== "bytes" && operation.content_type !== undefined) issue(["content_type"], 'only an op with encoding "bytes" sets its Content-Type');
  if (encoding !== "bytes" && encoding !== "multipart") return;
  if (operation.method === "GET" || operation.method === "DELETE") issue(["method"], `an upload (encoding "${encoding}") is sent with POST, PUT or PATCH`);
  if (operation.body_json !== undefined)
    issue(
      ["body_json"],
      `an op with encoding "${encoding}" has no body_json: its body is the file${encoding === "multipart" ? " and the multipart parts" : ""}`,
    );
  if (fileArgs.length !== 1) issue(["args"], `an op with encoding "${encoding}" declares exactly one arg of type "file" (it declares ${fileArgs.length})`);
  if (encoding === "bytes") return;
  const multipart = operation.multipart;
  if (multipart === undefined) {
    issue(["multipart"], 'an op with encoding "multipart" declares its parts: { kind: "form-data" | "related", parts: [...] }');
    return;
  }
  let fileParts = 0;
  multipart.parts.forEach((part, index) => {
    const at = ["multipart", "parts", index];
    if ((part.json === undefined) === (part.file === undefined)) issue(at, 'a part is exactly one of "json" (a template) or "file" (the file arg)');
    if (part.file !== undefined) {
      fileParts += 1;
      if (args[part.file]?.type !== "file") issue([...at, "file"], `names no arg of type "file" ("${part.file}")`);
    }
    if (multipart.kind === "form-data" && part.name === undefined) issue([...at, "name"], "a form-data part needs a name");
    if (multipart.kind === "related" && part.name !== undefined) issue([...at, "name"], "a related part has no name");
    if (part.json !== undefined) jsonPlaceholderRules(part.json, args, issue, [...at, "json"]);
  });
  if (fileParts !== 1) issue(["multipart", "parts"], "exactly one part carries the file");
  if (multipart.kind === "related" && (multipart.parts.length !== 2 || multipart.parts[0]?.json === undefined || multipart.parts[1]?.file === undefined)) {
    issue(["multipart", "parts"], "a related body is two parts: the JSON metadata, then the file");
  }
}

/** Every placeholder of a JSON part names a declared arg that is not the file (the file goes only in its own part). */
function jsonPlaceholderRules(value: unknown, args: Readonly<Record<string, UploadArg>>, issue: IssueSink, at: PropertyKey[]): void {
  if (typeof value === "string") {
    for (const name of placeholderNames(value)) {
      if (args[name] === undefined) issue(at, `placeholder {${name}} names no declared arg`);
      else if (args[name]?.type === "file") issue(at, `{${name}} is a file arg: it goes only in its own part`);
    }
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => {
      jsonPlaceholderRules(item, args, issue, [...at, index]);
    });
  } else if (value !== null && typeof value === "object") {
    for (const key of Object.keys(value)) jsonPlaceholderRules((value as Record<string, unknown>)[key], args, issue, [...at, key]);
  }
}

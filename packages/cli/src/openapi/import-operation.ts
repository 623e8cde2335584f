import type { Arg, JsonValue, Operation } from "@eleven-integrations/schema";
import { argName, draftArg, plainText } from "./draft-arg.js";
import type { SpecOperation } from "./find-operation.js";
import {
  expandArrays,
  isArraySchema,
  isObject,
  itemSchemas,
  propertyNames,
  propertyOf,
  requiredOf,
  valueRules,
  variants,
  type Schema,
} from "./schema-shape.js";
import { SpecError } from "./spec-error.js";
import { OP_ID_PATTERN } from "@eleven-integrations/schema";

export interface Draft {
  /** The op, ready to paste into a manifest's `ops`. */
  readonly op: Operation;
  /** The `auth.base` the draft's path is relative to (the spec's server). */
  readonly base: string | undefined;
  /** What the maintainer must still decide before the op ships. */
  readonly decide: readonly string[];
}

const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);
const QUERY_KEY = /^[A-Za-z0-9._~!$'()*+,;:@/?-]+$/;
const PICK_SEGMENT = /^[A-Za-z0-9_-]+$/;
const CREDENTIAL = /^(?:token|access_token|oauth_token|api_key|apikey|key)$/i;
const SECRET_FIELD = /secret|token|password|passwd|private_key|client_key/i;
const LIST_NAMES = ["items", "data", "results", "nodes", "records", "entries", "values", "channels", "messages", "members"];
const MAX_PICK = 12;
/** Fields a bot answers and chains with, proposed first (the rest keep the spec's order; links and internal ids last). */
const PREFERRED_FIELDS = [
  "id",
  "number",
  "key",
  "identifier",
  "login",
  "name",
  "title",
  "summary",
  "text",
  "ts",
  "user",
  "channel",
  "state",
  "status",
  "html_url",
  "url",
  "htmlLink",
  "created_at",
  "created",
  "updated_at",
  "updated",
];

/**
 * Drafts a manifest op from one spec operation: whole-segment path placeholders,
 * args as tight as the parameters' rules, a body template from the request body's
 * required properties, a pick of at most 12 scalar fields, `access` from the method,
 * and for a write a confirm line naming every required arg.
 */
export function draftOperation(spec: SpecOperation, options: { id?: string | undefined }): Draft {
  if (!METHODS.has(spec.method)) throw new SpecError("unknown_operation", `${spec.method} ${spec.path}: a manifest op is GET, POST, PUT, PATCH or DELETE`);
  const decide: string[] = [];
  const args: Record<string, Arg> = {};
  const used = new Set<string>();
  const claim = (name: string): string => {
    let candidate = argName(name);
    for (let index = 2; used.has(candidate); index += 1) candidate = `${argName(name)}_${index}`;
    used.add(candidate);
    return candidate;
  };
  const parameter = (place: string, name: string) => spec.parameters.find((item) => item.in === place && item.name === name);
  const operationLevel = new Set(
    Array.isArray(spec.operation.parameters) ? spec.operation.parameters.filter(isObject).map((item) => `${String(item.in)}:${String(item.name)}`) : [],
  );

  const segments = spec.path
    .split("/")
    .slice(1)
    .map((segment) => {
      const whole = /^\{([^{}]+)\}$/.exec(segment);
      if (whole === null) {
        if (segment.includes("{"))
          throw new SpecError(
            "unknown_operation",
            `${spec.path}: segment "${segment}" mixes a parameter with text; a manifest placeholder fills a whole segment`,
          );
        return segment;
      }
      const name = whole[1] as string;
      const declared = parameter("path", name);
      const arg = claim(name);
      const drafted = draftArg(arg, isObject(declared?.schema) ? declared.schema : {}, true, declared?.description);
      args[arg] = drafted.arg;
      decide.push(...drafted.notes);
      return `{${arg}}`;
    });

  const query: string[] = [];
  const leftOut: string[] = [];
  for (const item of spec.parameters) {
    if (item.in !== "query") continue;
    const name = String(item.name);
    const required = item.required === true;
    const deprecated = item.deprecated === true || (typeof item.description === "string" && /^\s*deprecated\b/i.test(item.description));
    if (!required && (!operationLevel.has(`query:${name}`) || deprecated || CREDENTIAL.test(name))) {
      leftOut.push(name);
      continue;
    }
    if (CREDENTIAL.test(name)) {
      decide.push(`query parameter "${name}" carries the credential in the spec; the executor sends it as the Authorization header, so it is left out`);
      continue;
    }
    if (!QUERY_KEY.test(name)) {
      decide.push(`query parameter "${name}" cannot be written as a manifest query key; left out`);
      continue;
    }
    const arg = claim(name);
    const drafted = draftArg(arg, isObject(item.schema) ? item.schema : {}, required, item.description);
    args[arg] = drafted.arg;
    decide.push(...drafted.notes);
    query.push(`${name}={${arg}}`);
  }
  if (leftOut.length > 0)
    decide.push(`optional query parameters shared by every operation of the path, deprecated, or carrying the credential were left out: ${leftOut.join(", ")}`);
  for (const item of spec.parameters) {
    if (item.required === true && (item.in === "header" || item.in === "cookie") && !/^(?:authorization|accept|content-type)$/i.test(String(item.name))) {
      decide.push(`the spec requires the ${String(item.in)} "${String(item.name)}": set it in auth.headers if it is not the credential`);
    }
  }

  const body = draftBody(spec, claim, args, decide);
  const access = spec.method === "GET" ? "read" : "write";
  const id = options.id ?? draftId(spec);
  if (!OP_ID_PATTERN.test(id)) throw new SpecError("unknown_operation", `op id "${id}" is not namespace.verb ([a-z][a-z0-9_]*.[a-z][a-z0-9_]*); pass --id`);
  const label = draftLabel(spec);
  const op: Operation = {
    id,
    label,
    access,
    method: spec.method as Operation["method"],
    path: `/${segments.join("/")}${query.length > 0 ? `?${query.join("&")}` : ""}`,
  };
  if (Object.keys(args).length > 0) op.args = args;
  if (body !== undefined) {
    op.body_json = body.template as NonNullable<Operation["body_json"]>;
    if (body.encoding === "form") op.encoding = "form";
  }
  if (access === "write") {
    const required = Object.entries(args)
      .filter(([, arg]) => arg.required === true)
      .map(([name]) => (args[name]?.enum === undefined && args[name]?.pattern === undefined ? `“{${name}}”` : `{${name}}`));
    const names = Object.entries(args)
      .filter(([, arg]) => arg.required === true)
      .map(([name], index) => `${name.replace(/_/g, " ")} ${required[index] as string}`);
    op.confirm = plainText(`${label}${names.length > 0 ? `: ${names.join(", ")}` : ""}`, 500);
    decide.push("confirm: say the consequence in the member's words (who is affected, what it costs); it must keep naming every required arg");
    if (spec.method === "DELETE") decide.push("DELETE: mark the op destructive if it cannot be undone");
  }
  const pick = draftPick(spec, decide);
  if (pick !== undefined) op.pick = pick;
  decide.push(`access "${access}" comes from the method: a ${spec.method} that only reads (a search by POST) is a read`);
  decide.push("if the op lists, declare its pagination and cursor arg");
  const base =
    spec.serverOrigins[0] === undefined || spec.serverOrigins[0] === "https://relative.invalid"
      ? undefined
      : `${spec.serverOrigins[0]}${spec.serverPaths[0]?.length ? `/${spec.serverPaths[0].join("/")}` : ""}`;
  return { op, base, decide };
}

function draftId(spec: SpecOperation): string {
  const words = (text: string) =>
    text
      .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
      .split(/[^A-Za-z0-9]+/)
      .filter((word) => word !== "")
      .map((word) => word.toLowerCase());
  const operationId = spec.operationId ?? "";
  const parts = operationId.split(/[./]/).filter((part) => part !== "");
  if (parts.length >= 2) return `${words(parts.at(-2) as string).join("_")}.${words(parts.at(-1) as string).join("_")}`;
  const snake = operationId.split("_");
  if (snake.length === 2 && snake.every((part) => part !== "")) return `${words(snake[0] as string).join("_")}.${words(snake[1] as string).join("_")}`;
  const literals = spec.path.split("/").filter((segment) => segment !== "" && !segment.includes("{") && !/^v[0-9]+$/.test(segment));
  const noun = words(literals.at(-1) ?? "op").join("_") || "op";
  const verb = { GET: spec.path.endsWith("}") ? "get" : "list", POST: "create", PUT: "update", PATCH: "update", DELETE: "delete" }[spec.method] ?? "run";
  return `${noun}.${verb}`;
}

function draftLabel(spec: SpecOperation): string {
  for (const key of ["summary", "description"]) {
    const text = spec.operation[key];
    // Braces go: the label starts the confirm line, where `{name}` would be a placeholder.
    if (typeof text === "string" && text.trim() !== "") return plainText(text.replace(/[#*`_[\]{}]/g, ""), 200).replace(/\.$/, "");
  }
  return `${spec.method} ${spec.path.replace(/[{}]/g, "")}`;
}

function draftBody(
  spec: SpecOperation,
  claim: (name: string) => string,
  args: Record<string, Arg>,
  decide: string[],
): { template: Record<string, JsonValue>; encoding: "json" | "form" } | undefined {
  const requestBody = isObject(spec.operation.requestBody) ? spec.operation.requestBody : undefined;
  if (requestBody === undefined || !isObject(requestBody.content)) return undefined;
  const types = Object.keys(requestBody.content);
  const json = types.find((type) => /^application\/(?:[\w.+-]*\+)?json\b/i.test(type));
  const form = types.find((type) => /^application\/x-www-form-urlencoded\b/i.test(type));
  const chosen = json ?? form;
  if (chosen === undefined) {
    decide.push(`the request body is ${types.join(", ")}: a manifest sends JSON or a form; write the body by hand`);
    return undefined;
  }
  const encoding = chosen === json ? "json" : "form";
  const entry = requestBody.content[chosen];
  const schema = isObject(entry) && isObject(entry.schema) ? entry.schema : {};
  const template = buildObject(schema, "", encoding, claim, args, decide, 0);
  const optional = propertyNames(schema).filter((name) => !requiredOf(schema).includes(name));
  if (optional.length > 0) decide.push(`optional body properties were left out: ${optional.slice(0, 20).join(", ")}${optional.length > 20 ? ", …" : ""}`);
  if (Object.keys(template).length === 0 && requestBody.required !== true) return undefined;
  return { template, encoding };
}

function buildObject(
  schema: Schema,
  path: string,
  encoding: "json" | "form",
  claim: (name: string) => string,
  args: Record<string, Arg>,
  decide: string[],
  depth: number,
): Record<string, JsonValue> {
  const template: Record<string, JsonValue> = {};
  for (const name of requiredOf(schema)) {
    const where = path === "" ? name : `${path}.${name}`;
    const property = propertyOf(schema, name);
    const propertySchema = Array.isArray(property) ? (property.length === 1 ? (property[0] as Schema) : { anyOf: property }) : {};
    const shapes = variants(propertySchema);
    const isObjectShape =
      shapes.some((variant) => variant.type === "object" || isObject(variant.properties)) && !shapes.some((variant) => variant.type === "string");
    if (isArraySchema(propertySchema)) {
      decide.push(`required body property "${where}" is a list: a template cannot fill a list from one arg; write it by hand`);
      continue;
    }
    if (isObjectShape && depth < 4) {
      template[name] = buildObject(propertySchema, where, encoding, claim, args, decide, depth + 1);
      continue;
    }
    const rules = valueRules(propertySchema);
    if (encoding === "json" && rules.types.length > 0 && !rules.types.includes("string")) {
      const single = rules.enum?.length === 1 ? rules.enum[0] : undefined;
      const literal = single === undefined ? undefined : rules.types.includes("boolean") ? single === "true" : Number(single);
      if (literal !== undefined && !Number.isNaN(literal)) template[name] = literal;
      else decide.push(`required body property "${where}" is ${rules.types.join(" | ")} in JSON: an arg is always a string, so write a literal`);
      continue;
    }
    const arg = claim(where.replace(/\./g, "_"));
    const drafted = draftArg(arg, propertySchema, true, propertySchema.description);
    args[arg] = drafted.arg;
    decide.push(...drafted.notes);
    template[name] = `{${arg}}`;
  }
  return template;
}

function draftPick(spec: SpecOperation, decide: string[]): Operation["pick"] | undefined {
  const responses = isObject(spec.operation.responses) ? spec.operation.responses : {};
  const code = Object.keys(responses)
    .filter((key) => /^2(?:[0-9]{2}|XX)$/i.test(key))
    .sort()[0];
  const response = code === undefined ? undefined : responses[code];
  const content = isObject(response) && isObject(response.content) ? response.content : {};
  const jsonType = Object.keys(content).find((type) => /json|\*\/\*/i.test(type));
  const entry = jsonType === undefined ? undefined : content[jsonType];
  const schema = isObject(entry) && isObject(entry.schema) ? entry.schema : undefined;
  if (schema === undefined) {
    decide.push("the success response declares no JSON schema: no pick drafted");
    return undefined;
  }
  let root: string | undefined;
  let objects = expandArrays([schema]);
  if (!isArraySchema(schema)) {
    const lists = propertyNames(schema).filter((name) => {
      const property = propertyOf(schema, name);
      return (
        Array.isArray(property) && property.some((item) => isArraySchema(item) && itemSchemas(item).some((inner) => scalarFields(inner, "", 0).length > 0))
      );
    });
    // A list envelope ({ data: [...], has_more }) picks under its list; an object that merely
    // holds a list among many fields (a Stripe price's tiers) is picked itself.
    const envelope = lists.length === 1 && propertyNames(schema).length <= 8 && spec.method === "GET";
    const chosen = lists.find((name) => LIST_NAMES.includes(name)) ?? (envelope ? lists[0] : undefined);
    if (chosen !== undefined && PICK_SEGMENT.test(chosen)) {
      root = chosen;
      const property = propertyOf(schema, chosen);
      objects = expandArrays(Array.isArray(property) ? property : []);
    }
  }
  const fields = [...new Set(objects.flatMap((object) => scalarFields(object, "", 0)))];
  const rank = (field: string) => {
    const nested = field.includes(".") ? 150 : 0;
    const preferred = PREFERRED_FIELDS.indexOf(field.split(".").at(-1) as string);
    if (preferred !== -1) return preferred + nested;
    return (/(?:^|_)(?:node_id|url)$|_url$|\.url$|(?:^|\.)object$|_id$/.test(field) ? 1000 : 100) + nested;
  };
  const ordered = fields
    .map((field, index) => ({ field, index }))
    .sort((a, b) => rank(a.field) - rank(b.field) || a.index - b.index)
    .map((entry) => entry.field)
    .slice(0, MAX_PICK);
  if (ordered.length === 0) {
    if (root !== undefined) return { root };
    decide.push("the success response has no scalar fields to pick: write the pick by hand");
    return undefined;
  }
  decide.push(`pick: keep only what a bot needs to answer and to chain the next op (${fields.length} scalar fields found, ${ordered.length} proposed)`);
  return root === undefined ? { fields: ordered } : { root, fields: ordered };
}

/** Scalar fields of an object schema, its own first, then one level into nested objects (`user.login`). */
function scalarFields(schema: Schema, prefix: string, depth: number): string[] {
  const own: string[] = [];
  const nested: string[] = [];
  for (const name of propertyNames(schema)) {
    if (!PICK_SEGMENT.test(name) || SECRET_FIELD.test(name) || ["__proto__", "constructor", "prototype"].includes(name)) continue;
    const property = propertyOf(schema, name);
    if (!Array.isArray(property)) continue;
    const shapes = property.flatMap(variants);
    if (shapes.some((variant) => variant.deprecated === true)) continue;
    const types = new Set(shapes.flatMap((variant) => (typeof variant.type === "string" ? [variant.type] : [])));
    const path = prefix === "" ? name : `${prefix}.${name}`;
    if (types.has("object") || shapes.some((variant) => isObject(variant.properties))) {
      if (depth === 0) {
        const inner = scalarFields(property.length === 1 ? (property[0] as Schema) : { anyOf: property }, path, depth + 1);
        // A nested record keeps its few identifying fields (a user's login, not their email).
        const identifying = inner.filter((field) => PREFERRED_FIELDS.includes(field.split(".").at(-1) as string));
        nested.push(...identifying.slice(0, 3));
      }
    } else if (![...types].some((type) => type === "array") && types.size > 0) {
      own.push(path);
    }
  }
  return [...own, ...nested];
}

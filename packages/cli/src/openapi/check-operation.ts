import {
  conditionalLeaf,
  eachLeaf,
  isConditionalLeaf,
  isEachLeaf,
  isListArgType,
  itemArgType,
  parsePathTemplate,
  parseTenantTemplate,
  splitTemplate,
  type Arg,
  type JsonValue,
  type Manifest,
  type Operation,
  type PathSegment,
} from "@eleven-integrations/schema";
import { matchOperation, type SpecOperation } from "./find-operation.js";
import type { OpenApiDocument } from "./load-openapi.js";
import { isObject, itemSchemas, propertyOf, requiredOf, valueRules, walkPath, type Schema } from "./schema-shape.js";
import { checkArg, checkFixedValue, type ValueProblem } from "./value-checks.js";

export type MismatchRule =
  | "operation"
  | "host"
  | "query-key"
  | "header"
  | "body-key"
  | "body-encoding"
  | "enum"
  | "max-length"
  | "pattern"
  | "type"
  | "required"
  | "pick"
  | "page";

/** One way an op disagrees with the spec. `subject` names the key, arg or field (for allow-list entries). */
export interface Mismatch {
  readonly rule: MismatchRule;
  readonly subject: string;
  readonly message: string;
}

export interface OperationCheck {
  /** `GET /repos/{owner}/{repo}/issues`, as the spec writes it, when found. */
  readonly operation: string | undefined;
  readonly mismatches: readonly Mismatch[];
}

const FORM = "application/x-www-form-urlencoded";

/** Checks one manifest op against the spec: operation, host, query and body keys, values, required parameters, pick. */
export function checkOperation(document: OpenApiDocument, manifest: Manifest, op: Operation): OperationCheck {
  const parsed = parsePathTemplate(op.path);
  if (!parsed.ok)
    return { operation: undefined, mismatches: [{ rule: "operation", subject: op.path, message: `path does not parse: ${parsed.problems.join("; ")}` }] };
  // An op on a further host (`auth.hosts`) is served from there; every other op from base.
  const opBase = (op.host === undefined ? undefined : manifest.auth.hosts?.[op.host]) ?? manifest.auth.base;
  // A tenant base (`https://{subdomain}.zendesk.com/api/v2`) is parsed with a valid label in the placeholder's stead.
  const tenant = parseTenantTemplate(opBase, 1);
  const base = new URL(tenant.ok ? tenant.probe : opBase);
  const tenantHost = tenant.ok && tenant.placeholders.some((placeholder) => placeholder.place === "host");
  const basePathTemplate = opBase.slice("https://".length).replace(/^[^/]*/, "");
  const baseSegments = basePathTemplate
    .split("/")
    .filter((segment) => segment !== "")
    .map((text): PathSegment => {
      const name = /^\{([a-z][a-z0-9_]*)\}$/.exec(text)?.[1];
      return name === undefined ? { kind: "literal", text } : { kind: "arg", name };
    });
  // A base whose path names a tenant (Atlassian's /ex/jira/{cloudid}/rest/api/3) routes to the tenant up to
  // that segment; the API's own paths, the spec's /rest/api/3/..., start after it.
  // Or the tenant is a path parameter of the spec itself (Twilio's /2010-04-01/Accounts/{AccountSid}): the
  // whole base path is tried first.
  const routed: PathSegment[] = baseSegments.slice(baseSegments.findLastIndex((segment) => segment.kind === "arg") + 1);
  const whole = [...baseSegments, ...parsed.template.segments];
  const full = matchOperation(document, op.method, whole) !== undefined ? whole : [...routed, ...parsed.template.segments];
  const match = matchOperation(document, op.method, full);
  if (match === undefined) {
    const shown = `${op.method} ${basePathTemplate}${op.path.split("?")[0]}`;
    const others = ["GET", "POST", "PUT", "PATCH", "DELETE"].filter((method) => method !== op.method && matchOperation(document, method, full) !== undefined);
    const hint = others.length > 0 ? ` (the spec has ${others.join(", ")} there)` : "";
    return { operation: undefined, mismatches: [{ rule: "operation", subject: shown, message: `${shown} is not an operation of the spec${hint}` }] };
  }
  const spec = match.spec;
  const mismatches: Mismatch[] = [];
  const args = op.args ?? {};
  const add = (rule: MismatchRule, subject: string, message: string) => mismatches.push({ rule, subject, message });
  const addValue = (subject: string, where: string, problems: ValueProblem[]) => {
    for (const problem of problems) add(problem.rule, subject, `${where}: ${problem.message}`);
  };

  const origins = spec.serverOrigins.filter((origin) => origin !== "https://relative.invalid");
  if (tenantHost) {
    // The spec names its tenant host by a server variable's default, so one label in front of the same suffix will do.
    const suffix = base.hostname.slice(base.hostname.indexOf("."));
    const labels = base.hostname.split(".").length;
    const served = origins.some((origin) => {
      const host = new URL(origin).hostname;
      return origin.startsWith("https://") && host.endsWith(suffix) && host.split(".").length === labels;
    });
    if (origins.length > 0 && !served)
      add("host", opBase, `the spec serves ${spec.method} ${spec.path} from ${origins.join(", ")}, not a host of the form ${opBase}`);
  } else if (origins.length > 0 && !origins.includes(base.origin)) {
    add("host", base.origin, `the spec serves ${spec.method} ${spec.path} from ${origins.join(", ")}, not ${base.origin}`);
  }

  const parameter = (place: string, name: string) => spec.parameters.find((item) => item.in === place && item.name === name);
  const schemaOf = (item: Schema | undefined): Schema => (item !== undefined && isObject(item.schema) ? item.schema : {});

  for (const segment of match.segments) {
    if (segment.parameter === undefined) continue;
    const rules = valueRules(schemaOf(parameter("path", segment.parameter)));
    if (segment.manifest.kind === "arg") {
      // A tenant setting in the base path is checked with its declared pattern, as an arg would be.
      // Its length is bounded by that pattern (a value is at most one 63-character label or
      // segment), so the spec's maxLength is not compared with a max_length it does not have.
      const setting = args[segment.manifest.name] === undefined ? manifest.auth.tenant?.[segment.manifest.name] : undefined;
      const arg = setting === undefined ? (args[segment.manifest.name] ?? {}) : { pattern: setting.pattern };
      const problems = checkArg(segment.manifest.name, arg, rules).filter((problem) => setting === undefined || problem.rule !== "max-length");
      addValue(`path ${segment.parameter}`, `path {${segment.parameter}}`, problems);
    } else {
      addValue(`path ${segment.parameter}`, `path {${segment.parameter}}`, checkFixedValue(decode(segment.manifest.text), rules));
    }
  }

  const sentQuery = new Set<string>();
  for (const pair of parsed.template.query) {
    const key = decode(pair.key);
    const bracket = key.indexOf("[");
    const name = bracket === -1 ? key : key.slice(0, bracket);
    const declared = parameter("query", key) ?? parameter("query", name);
    if (declared === undefined) {
      add("query-key", key, `query key "${key}" is not a parameter of ${spec.method} ${spec.path}`);
      continue;
    }
    let schema = schemaOf(declared);
    if (declared.name !== key) schema = descendBrackets(schema, key.slice(bracket)) ?? {};
    const listArg = pair.value.kind === "arg" ? args[pair.value.name] : undefined;
    if (listArg !== undefined && isListArgType(listArg.type)) {
      // A list arg repeats the key: each item is checked against the parameter's items (or the parameter, for a repeated scalar).
      const items = itemSchemas(schema);
      schema = items.length === 1 ? (items[0] as Schema) : items.length > 1 ? { anyOf: items } : schema;
    }
    const rules = valueRules(schema);
    if (pair.value.kind === "arg") {
      if (args[pair.value.name]?.required === true) sentQuery.add(String(declared.name));
      addValue(`query ${key}`, `query ${key}`, checkArg(pair.value.name, itemArg(args[pair.value.name] ?? {}), rules));
    } else {
      sentQuery.add(String(declared.name));
      addValue(`query ${key}`, `query ${key}`, checkFixedValue(decode(pair.value.text), rules));
    }
  }

  const headers = new Set(Object.keys(manifest.auth.headers ?? {}).map((name) => name.toLowerCase()));
  // The op's own headers and a credential that travels under its own name are sent too.
  for (const name of Object.keys(op.headers ?? {})) {
    headers.add(name.toLowerCase());
    if (!spec.parameters.some((item) => item.in === "header" && String(item.name).toLowerCase() === name.toLowerCase())) {
      add("header", name, `header "${name}" is not a parameter of ${spec.method} ${spec.path}`);
    }
  }
  const credential = manifest.auth.credential;
  if (credential?.in === "header") headers.add(credential.name.toLowerCase());
  if (credential?.in === "query") sentQuery.add(credential.name);
  for (const item of spec.parameters) {
    if (item.required !== true) continue;
    const name = String(item.name);
    if (item.in === "query" && !sentQuery.has(name)) add("required", `query ${name}`, `required query parameter "${name}" is not always sent`);
    if (item.in === "header" && !["authorization", "accept", "content-type"].includes(name.toLowerCase()) && !headers.has(name.toLowerCase())) {
      add("required", `header ${name}`, `required header "${name}" is not sent`);
    }
    if (item.in === "cookie") add("required", `cookie ${name}`, `required cookie "${name}" is not sent`);
  }

  checkBody(spec, op, args, add, addValue);
  checkPick(spec, op, add);
  checkPaging(spec, op, parameter, add);
  return { operation: `${spec.method} ${spec.path}`, mismatches };
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** `[plan]` / `[]` / `[0][price]` after a query key's name: the schema those brackets reach. */
function descendBrackets(schema: Schema, brackets: string): Schema | undefined {
  let current: Schema[] = [schema];
  for (const match of brackets.matchAll(/\[([^\]]*)\]/g)) {
    const part = match[1] as string;
    const next: Schema[] = [];
    for (const candidate of current) {
      if (part === "" || /^[0-9]+$/.test(part)) next.push(...itemSchemas(candidate));
      else {
        const property = propertyOf(candidate, part);
        if (property === "free") return {};
        if (property !== undefined) next.push(...property);
      }
    }
    if (next.length === 0) return undefined;
    current = next;
  }
  return current.length === 1 ? current[0] : { anyOf: current };
}

function mediaSchema(content: unknown, encoding: "json" | "form"): { schema: Schema | undefined; declared: boolean; types: string[] } {
  if (!isObject(content)) return { schema: undefined, declared: false, types: [] };
  const types = Object.keys(content);
  const fits = (type: string) => {
    const bare = type.split(";")[0]?.trim().toLowerCase() ?? "";
    return encoding === "form" ? bare === FORM : bare === "application/json" || bare.endsWith("+json") || bare === "*/*";
  };
  const chosen = types.find(fits);
  const entry = chosen === undefined ? content[types[0] ?? ""] : content[chosen];
  const schema = isObject(entry) && isObject(entry.schema) ? entry.schema : undefined;
  return { schema, declared: chosen !== undefined, types };
}

type Add = (rule: MismatchRule, subject: string, message: string) => void;
type AddValue = (subject: string, where: string, problems: ValueProblem[]) => void;

function checkBody(spec: SpecOperation, op: Operation, args: Record<string, Arg>, add: Add, addValue: AddValue): void {
  const requestBody = isObject(spec.operation.requestBody) ? spec.operation.requestBody : undefined;
  if (op.body_json === undefined) {
    if (requestBody?.required === true) add("required", "body", `${spec.method} ${spec.path} requires a request body and the op sends none`);
    return;
  }
  if (requestBody === undefined) {
    add("body-key", "body", `${spec.method} ${spec.path} takes no request body`);
    return;
  }
  // An rfc2822 op sends JSON too (its message is one base64url string leaf).
  const encoding = op.encoding === "form" ? "form" : "json";
  const media = mediaSchema(requestBody.content, encoding);
  if (!media.declared) {
    add(
      "body-encoding",
      "body",
      `the op sends ${encoding === "form" ? FORM : "application/json"}, the spec declares ${media.types.join(", ") || "no media type"}`,
    );
  }
  if (media.schema === undefined) return;
  walkBody(op.body_json, [media.schema], "", { args, encoding, add, addValue });
}

/** A list arg as each of its items is checked: the item type, without `max_items`. */
function itemArg(arg: Arg): Arg {
  if (!isListArgType(arg.type)) return arg;
  const { max_items: _maxItems, ...rest } = arg;
  return { ...rest, type: itemArgType(arg.type) };
}

function alwaysSent(value: JsonValue, args: Record<string, Arg>): boolean {
  if (isConditionalLeaf(value)) return false;
  if (isEachLeaf(value)) return args[eachLeaf(value).arg]?.required === true;
  if (typeof value !== "string") return true;
  return splitTemplate(value).every((part) => part.kind === "literal" || args[part.name]?.required === true);
}

interface BodyContext {
  args: Record<string, Arg>;
  encoding: "json" | "form";
  add: Add;
  addValue: AddValue;
}

function walkBody(value: JsonValue, schemas: Schema[], path: string, context: BodyContext): void {
  const { args, add, addValue } = context;
  const where = path === "" ? "body" : `body ${path}`;
  if (Array.isArray(value)) {
    const items = schemas.flatMap(itemSchemas);
    value.forEach((item, index) => {
      walkBody(item, items.length > 0 ? items : [{}], `${path}[${index}]`, context);
    });
    return;
  }
  if (isEachLeaf(value)) {
    // `{ "$each", "value" }` sends an array of rendered values, the list arg standing for one item inside.
    const { arg, value: item } = eachLeaf(value);
    const listArg = args[arg];
    const items = schemas.flatMap(itemSchemas);
    const itemContext = listArg === undefined ? context : { ...context, args: { ...args, [arg]: itemArg(listArg) } };
    walkBody(item as JsonValue, items.length > 0 ? items : [{}], `${path}[]`, itemContext);
    return;
  }
  if (isConditionalLeaf(value)) {
    // `{ "$when", "value" }` sends its value (or nothing): the value is what the spec must take.
    walkBody(conditionalLeaf(value).value as JsonValue, schemas, path, context);
    return;
  }
  if (value !== null && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) {
      const childPath = path === "" ? key : `${path}.${key}`;
      const found: Schema[] = [];
      let free = false;
      for (const schema of schemas) {
        const property = propertyOf(schema, key);
        if (property === "free") free = true;
        else if (property !== undefined) found.push(...property);
      }
      if (found.length === 0 && !free) {
        add("body-key", `body ${childPath}`, `body key "${childPath}" is not a property of the request body`);
        continue;
      }
      if (found.length > 0) walkBody(child as JsonValue, found, childPath, context);
    }
    if (schemas.length === 1) {
      for (const name of requiredOf(schemas[0] as Schema)) {
        const child = (value as Record<string, JsonValue>)[name];
        const childPath = path === "" ? name : `${path}.${name}`;
        if (child === undefined || !alwaysSent(child, args)) add("required", `body ${childPath}`, `required body property "${childPath}" is not always sent`);
      }
    }
    return;
  }
  const rules = valueRules(schemas.length === 1 ? (schemas[0] as Schema) : { anyOf: schemas });
  if (typeof value === "string") {
    const parts = splitTemplate(value);
    const listArg = parts.length === 1 && parts[0]?.kind === "arg" ? args[parts[0].name] : undefined;
    if (parts.length === 1 && parts[0]?.kind === "arg" && listArg !== undefined && isListArgType(listArg.type)) {
      // A list arg's whole leaf is a JSON array: the spec must take an array, each item checked against its items.
      const name = parts[0].name;
      if (rules.types.length > 0 && !rules.types.includes("array"))
        add("type", where, `${where}: {${name}} is sent as a JSON array, the spec wants ${rules.types.join(" | ")}`);
      const items = schemas.flatMap(itemSchemas);
      if (items.length > 0) addValue(where, where, checkArg(name, itemArg(listArg), valueRules(items.length === 1 ? (items[0] as Schema) : { anyOf: items })));
    } else if (parts.length === 1 && parts[0]?.kind === "arg") {
      const name = parts[0].name;
      addValue(where, where, checkArg(name, args[name] ?? {}, rules));
      // A typed arg (`type: "integer"`) fills a whole leaf as that JSON type; any other as a string.
      const sent = context.encoding === "json" ? (args[name]?.type ?? "string") : "string";
      if (context.encoding === "json" && rules.types.length > 0 && !sentTypeFits(sent, rules.types)) {
        add("type", where, `${where}: {${name}} is sent as a JSON ${sent}, the spec wants ${rules.types.join(" | ")}`);
      }
    } else if (parts.every((part) => part.kind === "literal")) {
      addValue(where, where, checkFixedValue(value, rules));
    }
    return;
  }
  addValue(where, where, checkFixedValue(value as number | boolean | null, rules));
}

/** Whether a leaf sent as JSON `sent` is of one of the spec's `types` (an integer is a number too). */
function sentTypeFits(sent: string, types: readonly string[]): boolean {
  if (sent === "integer") return types.includes("integer") || types.includes("number");
  return types.includes(sent);
}

function successSchemas(spec: SpecOperation): Schema[] {
  const responses = isObject(spec.operation.responses) ? spec.operation.responses : {};
  const codes = Object.keys(responses)
    .filter((code) => /^2(?:[0-9]{2}|XX)$/i.test(code))
    .sort();
  const schemas: Schema[] = [];
  for (const code of codes) {
    const response = responses[code];
    if (!isObject(response) || !isObject(response.content)) continue;
    for (const [type, entry] of Object.entries(response.content)) {
      const bare = type.split(";")[0]?.trim().toLowerCase() ?? "";
      if ((bare === "application/json" || bare.endsWith("+json") || bare === "*/*") && isObject(entry) && isObject(entry.schema)) schemas.push(entry.schema);
    }
  }
  return schemas;
}

function checkPick(spec: SpecOperation, op: Operation, add: Add): void {
  if (op.pick === undefined) return;
  const schemas = successSchemas(spec);
  if (schemas.length === 0) {
    add("pick", "response", `${spec.method} ${spec.path} declares no JSON body for a 2xx answer, so nothing can be picked`);
    return;
  }
  let roots = schemas;
  if (op.pick.root !== undefined) {
    const segments = op.pick.root.split(".");
    const walk = walkPath(schemas, segments);
    if (!walk.found) {
      add(
        "pick",
        `root ${op.pick.root}`,
        `pick.root "${op.pick.root}" is not in the success response ("${segments.slice(0, walk.at + 1).join(".")}" is not declared)`,
      );
      return;
    }
    if (walk.free) return;
    roots = walk.schemas;
  }
  for (const field of op.pick.fields ?? []) {
    const segments = field.split(".");
    const walk = walkPath(roots, segments);
    if (!walk.found)
      add(
        "pick",
        `field ${field}`,
        `pick field "${field}" is not in the success response${segments.length > 1 ? ` ("${segments.slice(0, walk.at + 1).join(".")}" is not declared)` : ""}`,
      );
  }
}

/**
 * The op's paging declaration against the spec: a `Link` query key is a query
 * parameter of the operation; a body cursor, a "more" flag, the items list and each
 * item's key are in the success response.
 */
function checkPaging(spec: SpecOperation, op: Operation, parameter: (place: string, name: string) => Schema | undefined, add: Add): void {
  const page = op.page;
  if (page === undefined) return;
  if (page.from === "link") {
    if (parameter("query", page.query_key) === undefined)
      add("page", `query_key ${page.query_key}`, `page.query_key "${page.query_key}" is not a query parameter of ${spec.method} ${spec.path}`);
    return;
  }
  const schemas = successSchemas(spec);
  if (schemas.length === 0) {
    add("page", "response", `${spec.method} ${spec.path} declares no JSON body for a 2xx answer, so no cursor can be read from it`);
    return;
  }
  const exists = (what: string, path: string, within: Schema[]) => {
    const walk = walkPath(within, path.split("."));
    if (!walk.found) add("page", `${what} ${path}`, `page.${what} "${path}" is not in the success response`);
    return walk;
  };
  if (page.from === "body" || page.from === "next_path") {
    if (page.from === "body") exists("cursor", page.cursor, schemas);
    else if (page.top_key !== undefined) {
      if (!walkPath(schemas, [page.top_key]).found) add("page", `top_key ${page.top_key}`, `page.top_key "${page.top_key}" is not in the success response`);
    } else exists("path", page.path as string, schemas);
    if (page.more !== undefined) exists("more", page.more, schemas);
    return;
  }
  if (page.from === "offset" || page.from === "page") {
    // The items counted, the "more" flag and the total are read from the answer: each must be in it.
    if (page.items !== undefined) exists("items", page.items, schemas);
    if (page.more !== undefined) exists("more", page.more, schemas);
    if (page.last !== undefined) exists("last", page.last, schemas);
    if (page.total !== undefined) exists("total", page.total, schemas);
    if (page.from === "page" && page.total_pages !== undefined) exists("total_pages", page.total_pages, schemas);
    return;
  }
  exists("more", page.more, schemas);
  const items = page.items === undefined ? { found: true as const, schemas, free: false } : exists("items", page.items, schemas);
  if (items.found && !items.free) exists("key", page.key, items.schemas);
}

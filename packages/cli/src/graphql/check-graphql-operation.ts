import { placeholderNames, splitTemplate, type Operation } from "@eleven-integrations/schema";
import {
  type GraphQLError,
  getNamedType,
  isEnumType,
  isNonNullType,
  isScalarType,
  Kind,
  parse,
  typeFromAST,
  validate,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";
import type { Mismatch } from "../openapi/check-operation.js";

export interface GraphqlCheck {
  /** `query`, `mutation issueCreate`: what the op runs, when it parses. */
  readonly operation: string | undefined;
  readonly mismatches: readonly Mismatch[];
}

/** A selection tree by response key (alias or field name). */
type Selected = Map<string, Selected>;

/**
 * Checks one GraphQL op: its `body_json.query` parses and validates against the
 * schema, holds no placeholder, its `variables` are the query's variables (every
 * non-null one always sent, each arg fitting its variable's type), and every pick path
 * is selected by the query.
 */
export function checkGraphqlOperation(schema: GraphQLSchema, op: Operation): GraphqlCheck {
  const mismatches: Mismatch[] = [];
  const add = (rule: string, subject: string, message: string) => mismatches.push({ rule, subject, message } as Mismatch);
  const body = op.body_json;
  const query = body !== undefined && !Array.isArray(body) ? body.query : undefined;
  if (typeof query !== "string")
    return { operation: undefined, mismatches: [{ rule: "operation", subject: "query", message: "body_json.query holds no GraphQL query" }] };
  for (const name of placeholderNames(query)) add("spliced", name, `{${name}} is spliced into the query text; pass it in body_json.variables`);

  let document: DocumentNode;
  try {
    document = parse(query);
  } catch (error) {
    add("syntax", "query", `the query does not parse: ${(error as GraphQLError).message}`);
    return { operation: undefined, mismatches };
  }
  for (const error of validate(schema, document)) add("schema", "query", error.message);

  const operations = document.definitions.filter((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION);
  const operationName = body !== undefined && !Array.isArray(body) && typeof body.operationName === "string" ? body.operationName : undefined;
  const operation =
    operations.length === 1 && operationName === undefined ? operations[0] : operations.find((candidate) => candidate.name?.value === operationName);
  if (operation === undefined) {
    add(
      "operation",
      "query",
      operations.length > 1 ? "the query holds several operations and body_json.operationName names none of them" : "the query holds no operation",
    );
    return { operation: undefined, mismatches };
  }
  const shown = `${operation.operation}${operation.name ? ` ${operation.name.value}` : ""}`;
  if (op.access === "read" && operation.operation !== "query") add("access", "query", `a read op runs a ${operation.operation}`);
  if (op.access === "write" && operation.operation === "query") add("access", "query", "a write op runs a query: make it a read");

  checkVariables(schema, op, operation, body as Record<string, unknown>, add);

  const fragments = new Map(
    document.definitions
      .filter((definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION)
      .map((fragment) => [fragment.name.value, fragment]),
  );
  const tree: Selected = new Map([["data", selections(operation.selectionSet, fragments, 0)]]);
  if (op.pick !== undefined) {
    let root: Selected | undefined = tree;
    if (op.pick.root !== undefined) {
      root = walk(tree, op.pick.root.split("."));
      if (root === undefined) add("pick", `root ${op.pick.root}`, `pick.root "${op.pick.root}" is not selected by the query`);
    } else if (op.pick.fields !== undefined && op.pick.fields.length > 0) {
      add("pick", "root", 'a GraphQL answer is { data: ... }: give pick.root under "data"');
      root = undefined;
    }
    if (root !== undefined) {
      for (const field of op.pick.fields ?? []) {
        if (walk(root, field.split(".")) === undefined) add("pick", `field ${field}`, `pick field "${field}" is not selected by the query`);
      }
    }
  }
  const page = op.page;
  if (page !== undefined) {
    if (page.from === "link") add("page", "link", "a GraphQL answer has no Link header: page from the body");
    const selected = (what: string, path: string | undefined, within: Selected | undefined) => {
      if (path === undefined || within === undefined) return within;
      const found = walk(within, path.split("."));
      if (found === undefined) add("page", `${what} ${path}`, `page.${what} "${path}" is not selected by the query`);
      return found;
    };
    if (page.from === "body") {
      selected("cursor", page.cursor, tree);
      selected("more", page.more, tree);
    } else if (page.from === "last_item") {
      selected("more", page.more, tree);
      selected("key", page.key, page.items === undefined ? tree : selected("items", page.items, tree));
    }
  }
  return { operation: shown, mismatches };
}

function selections(set: SelectionSetNode | undefined, fragments: Map<string, FragmentDefinitionNode>, depth: number): Selected {
  const out: Selected = new Map();
  if (set === undefined || depth > 32) return out;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      const key = selection.alias?.value ?? selection.name.value;
      const child = selections(selection.selectionSet, fragments, depth + 1);
      const existing = out.get(key);
      if (existing === undefined) out.set(key, child);
      else for (const [name, value] of child) existing.set(name, value);
    } else {
      const inner = selection.kind === Kind.INLINE_FRAGMENT ? selection.selectionSet : fragments.get(selection.name.value)?.selectionSet;
      for (const [name, value] of selections(inner, fragments, depth + 1)) out.set(name, value);
    }
  }
  return out;
}

function walk(tree: Selected, path: readonly string[]): Selected | undefined {
  let current: Selected | undefined = tree;
  for (const segment of path) {
    current = current?.get(segment);
    if (current === undefined) return undefined;
  }
  return current;
}

function checkVariables(
  schema: GraphQLSchema,
  op: Operation,
  operation: OperationDefinitionNode,
  body: Record<string, unknown>,
  add: (rule: string, subject: string, message: string) => void,
): void {
  const args = op.args ?? {};
  const given = body.variables;
  const variables = given !== null && typeof given === "object" && !Array.isArray(given) ? (given as Record<string, unknown>) : {};
  if (given !== undefined && variables !== given) add("variables", "variables", "body_json.variables must be an object");
  const declared = new Map((operation.variableDefinitions ?? []).map((definition) => [definition.variable.name.value, definition]));
  for (const [name, value] of Object.entries(variables)) {
    const definition = declared.get(name);
    if (definition === undefined) {
      add("variables", `variable ${name}`, `variable "${name}" is not declared by the query`);
      continue;
    }
    const type = typeFromAST(schema, definition.type);
    if (type === undefined) continue;
    const named = getNamedType(type);
    const parts = typeof value === "string" ? splitTemplate(value) : [];
    const argName = parts.length === 1 && parts[0]?.kind === "arg" ? parts[0].name : undefined;
    if (argName !== undefined) {
      const arg = args[argName] ?? {};
      if (isScalarType(named) && ["Int", "Float", "Boolean"].includes(named.name)) {
        add("type", `variable ${name}`, `variable $${name} is ${named.name}, but {${argName}} is sent as a string`);
      } else if (isEnumType(named)) {
        const values = named.getValues().map((item) => item.name);
        const extra = arg.enum === undefined ? undefined : arg.enum.filter((item) => !values.includes(item));
        if (arg.enum === undefined) add("enum", `variable ${name}`, `arg ${argName} takes any value, but $${name} is the enum ${named.name}`);
        else if (extra !== undefined && extra.length > 0)
          add("enum", `variable ${name}`, `arg ${argName} allows ${extra.map((item) => JSON.stringify(item)).join(", ")}, not values of ${named.name}`);
      }
    } else if (typeof value === "string" && parts.every((part) => part.kind === "literal") && isEnumType(named)) {
      if (!named.getValues().some((item) => item.name === value)) add("enum", `variable ${name}`, `"${value}" is not a value of ${named.name}`);
    }
  }
  for (const [name, definition] of declared) {
    if (!isNonNullType(typeFromAST(schema, definition.type)) || definition.defaultValue !== undefined) continue;
    const value = variables[name];
    const always =
      value !== undefined && (typeof value !== "string" || splitTemplate(value).every((part) => part.kind === "literal" || args[part.name]?.required === true));
    if (!always) add("required", `variable ${name}`, `non-null variable $${name} is not always sent`);
  }
  const sent = new Set<string>([
    ...placeholderNames(op.path),
    ...Object.values(variables).flatMap((value) => (typeof value === "string" ? placeholderNames(value) : [])),
  ]);
  for (const name of Object.keys(args)) if (!sent.has(name)) add("variables", `arg ${name}`, `arg ${name} is never sent as a variable`);
}

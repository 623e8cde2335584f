/**
 * A yes/no validator compiled from a zod schema's definition tree, for the fast
 * path of loading: it walks a value once, with no payload objects, issue lists
 * or output copies, and runs the schema's own checks (lengths, patterns and
 * every `refine`/`superRefine`, the cross-field rules included) on the value as
 * it is. It answers `true` only when zod would accept the value unchanged;
 * anything it does not know (a transform, a default, a key zod would strip, a
 * `__proto__` key, a non-plain object) answers `false`, and the caller asks zod,
 * whose verdict and messages stand. A field added to the schema is covered
 * without a change here as long as it is built from the node kinds below.
 *
 * It reads zod's definitions (`schema._zod.def`, the interface zod documents for
 * library authors), so it is pinned to zod 4 like the schema itself.
 *
 * The walk is generated as JavaScript source, one function per schema node, so the
 * engine sees plain field reads, inline type tests and direct calls it can inline,
 * rather than a closure per node called through one polymorphic site. The source
 * holds no text from the schema or the value: property names are JSON string
 * literals, and everything else (checks, patterns, value sets) is passed in.
 */

/** A value check compiled from one schema node. */
export type Validator = (value: unknown) => boolean;

/**
 * A compiled schema's check. `parsedJson`: the value is exactly what `JSON.parse` returned, so
 * its objects hold only enumerable string keys and its arrays only their items; the walk then
 * skips the tests for anything else (each lists an object's or an array's keys, which costs an
 * allocation per object, and a load walks hundreds of thousands). The verdict is the same.
 */
export type CompiledValidator = (value: unknown, parsedJson?: boolean) => boolean;

export interface CompileValidatorOptions {
  /**
   * A plain predicate for a custom check (a `refine` or `superRefine`) with the same verdict
   * as the check, run instead of zod's own check; undefined runs zod's.
   */
  readonly plainCheck?: (check: unknown) => Validator | undefined;
  /**
   * For a check that fails only when some object of the value, at any depth, holds one of
   * these keys as its own: the keys. On the raw value of a pipe (`z.unknown().check(...).pipe(shape)`)
   * such a check is not run; the walk of `shape` refuses the keys in every object it visits instead.
   */
  readonly refusedKeys?: (check: unknown) => ReadonlySet<string> | undefined;
}

interface ZodCheckPayload {
  value: unknown;
  issues: unknown[];
}

interface ZodCheckLike {
  readonly _zod: {
    readonly def: {
      readonly check: string;
      readonly when?: (payload: ZodCheckPayload) => boolean;
      readonly maximum?: number;
      readonly minimum?: number;
      readonly format?: string;
      readonly pattern?: RegExp;
    };
    check(payload: ZodCheckPayload): unknown;
  };
}

interface ZodNodeLike {
  readonly _zod: {
    readonly def: {
      readonly type: string;
      readonly checks?: readonly ZodCheckLike[];
      readonly shape?: Readonly<Record<string, ZodNodeLike>>;
      readonly catchall?: ZodNodeLike;
      readonly element?: ZodNodeLike;
      readonly keyType?: ZodNodeLike;
      readonly valueType?: ZodNodeLike;
      readonly options?: readonly ZodNodeLike[];
      readonly innerType?: ZodNodeLike;
      readonly getter?: () => ZodNodeLike;
      readonly in?: ZodNodeLike;
      readonly out?: ZodNodeLike;
      readonly mode?: string;
    };
    readonly values?: ReadonlySet<unknown>;
  };
}

/** Check kinds that only look at the value (never rewrite it). */
const PURE_CHECKS = new Set([
  "min_length",
  "max_length",
  "length_equals",
  "string_format",
  "custom",
  "greater_than",
  "less_than",
  "number_format",
  "multiple_of",
]);

// zod's checks only read the value and push issues: one payload serves every call (checks never nest).
const payload: ZodCheckPayload = { value: undefined, issues: [] };

/** Compiles `schema` (a zod 4 schema) into a {@link Validator}. */
export function compileValidator(schema: unknown, options: CompileValidatorOptions = {}): CompiledValidator {
  const generator = new Generator(options);
  const root = generator.node(schema as ZodNodeLike, generator.plain);
  return generator.link(root);
}

/** Where a node is compiled: the same node validates differently when it also refuses keys, so each scope names its own functions. */
interface Scope {
  readonly names: Map<ZodNodeLike, string>;
  /** Keys every object walked here must not hold as its own (see `refusedKeys`). */
  readonly refused: ReadonlySet<string> | undefined;
}

class Generator {
  readonly plain: Scope = { names: new Map(), refused: undefined };
  readonly #functions: string[] = [];
  /** What the generated source reads by index: checks, patterns, value sets, helpers. */
  readonly #externals: unknown[] = [];
  readonly #plainCheck: (check: unknown) => Validator | undefined;
  readonly #refusedKeysOf: (check: unknown) => ReadonlySet<string> | undefined;

  constructor(options: CompileValidatorOptions) {
    this.#plainCheck = options.plainCheck ?? (() => undefined);
    this.#refusedKeysOf = options.refusedKeys ?? (() => undefined);
  }

  /** The generated source's name for `value`, passed in rather than written out. */
  external(value: unknown): string {
    this.#externals.push(value);
    return `x[${this.#externals.length - 1}]`;
  }

  /** The name of the function that validates `node` in `scope`, generating it (and what it calls) once. */
  node(node: ZodNodeLike, scope: Scope, skipped: readonly unknown[] = []): string {
    const known = skipped.length === 0 ? scope.names.get(node) : undefined;
    if (known !== undefined) return known;
    const name = `v${this.#functions.length}`;
    this.#functions.push("");
    // Named before its body is made: a recursive schema (z.json()) calls itself.
    if (skipped.length === 0) scope.names.set(node, name);
    const index = this.#functions.length - 1;
    const checks = (node._zod.def.checks ?? []).filter((check) => !skipped.includes(check));
    const statements = checks.every((check) => PURE_CHECKS.has(check._zod.def.check))
      ? [this.#typeTest(node, scope), ...checks.map((check) => `if (!(${this.#check(check)})) return false;`), "return true;"]
      : ["return false;"];
    this.#functions[index] = `function ${name}(value) {\n${statements.join("\n")}\n}`;
    return name;
  }

  link(root: string): CompiledValidator {
    // The source is made here from the schema's structure alone (see the module comment).
    // `parsed` is the current walk's `parsedJson`: walks never nest (no check calls back into this validator).
    const source = [
      '"use strict";',
      "let parsed = false;",
      ...this.#functions,
      `return (value, parsedJson) => { parsed = parsedJson === true; try { return ${root}(value); } finally { parsed = false; } };`,
    ].join("\n");
    const build = new Function("x", source) as (externals: unknown[]) => CompiledValidator;
    return build(this.#externals);
  }

  /**
   * One check as an expression of `value`: the common built-in ones as plain tests of a
   * value of the node's type (string length, pattern, safe integer), a refinement by its
   * plain predicate when it has one, the others by running zod's own check.
   */
  #check(check: ZodCheckLike): string {
    const def = check._zod.def;
    if (def.check === "custom") return `${this.external(this.#plainCheck(check) ?? runCheck(check))}(value)`;
    // Each test below is zod's own on a value of the node's type, which is all a check here ever sees (its `when`, if any, only skips other values).
    const { maximum, minimum, pattern } = def;
    // zod counts a string's code points where UTF-16 units leave it in doubt: units within the bound settle it; else zod's check runs.
    if (def.check === "max_length" && typeof maximum === "number") return `value.length <= ${maximum} || ${this.external(runCheck(check))}(value)`;
    if (def.check === "min_length" && typeof minimum === "number") return `value.length >= ${minimum * 2} || ${this.external(runCheck(check))}(value)`;
    if (def.check === "string_format" && def.format === "regex" && pattern instanceof RegExp) {
      const regex = this.external(pattern);
      return `(${regex}.lastIndex = 0, ${regex}.test(value))`;
    }
    if (def.check === "number_format" && def.format === "safeint") return "Number.isSafeInteger(value)";
    return `${this.external(runCheck(check))}(value)`;
  }

  /** Statements that return false when `value` is not of the node's type (its own checks follow). */
  #typeTest(node: ZodNodeLike, scope: Scope): string {
    const def = node._zod.def;
    switch (def.type) {
      case "string":
        return 'if (typeof value !== "string") return false;';
      case "number":
        return 'if (typeof value !== "number" || !Number.isFinite(value)) return false;';
      case "boolean":
        return 'if (typeof value !== "boolean") return false;';
      case "null":
        return "if (value !== null) return false;";
      case "unknown":
      case "any":
        if (scope.refused === undefined) return "if (value === undefined) return false;";
        return `if (value === undefined || ${this.external(holdsKey)}(value, ${this.external(scope.refused)}, 0)) return false;`;
      case "literal":
      case "enum": {
        const values = node._zod.values;
        return values === undefined ? "return false;" : `if (!${this.external(values)}.has(value)) return false;`;
      }
      case "optional":
        return `if (value !== undefined && !${this.node(def.innerType as ZodNodeLike, scope)}(value)) return false;`;
      case "nullable":
        return `if (value !== null && !${this.node(def.innerType as ZodNodeLike, scope)}(value)) return false;`;
      case "lazy":
        return `if (!${this.node((def.getter as () => ZodNodeLike)(), scope)}(value)) return false;`;
      case "union": {
        const options = (def.options ?? []).map((option) => `${this.node(option, scope)}(value)`);
        return options.length === 0 ? "return false;" : `if (!(${options.join(" || ")})) return false;`;
      }
      case "array":
        return [
          // An array with other own keys (`ops.extra`): zod's copy drops them.
          "if (!Array.isArray(value) || (!parsed && Object.keys(value).length !== value.length)) return false;",
          `for (let index = 0; index < value.length; index += 1) if (!${this.node(def.element as ZodNodeLike, scope)}(value[index])) return false;`,
        ].join("\n");
      case "record":
        return this.#recordTest(def.keyType as ZodNodeLike, def.valueType as ZodNodeLike, scope);
      case "object":
        return this.#objectTest(def.shape ?? {}, scope);
      case "pipe":
        return this.#pipeTest(def.in as ZodNodeLike, def.out as ZodNodeLike, scope);
      default:
        // A transform, default, intersection...: zod decides.
        return "return false;";
    }
  }

  /** A plain object as JSON.parse makes it: zod accepts more, and then it decides. */
  #plainObjectTest(): string {
    return [
      'if (typeof value !== "object" || value === null || Array.isArray(value)) return false;',
      "const prototype = Object.getPrototypeOf(value);",
      `if (prototype !== ${this.external(Object.prototype)} && prototype !== null) return false;`,
    ].join("\n");
  }

  #recordTest(keyType: ZodNodeLike, valueType: ZodNodeLike, scope: Scope): string {
    const key = this.node(keyType, scope);
    const item = this.node(valueType, scope);
    const refused = scope.refused === undefined ? "" : ` || ${this.external(scope.refused)}.has(name)`;
    return [
      this.#plainObjectTest(),
      // zod drops a `__proto__` key from its output (the value as it is would differ) and refuses symbol keys.
      // Parsed JSON: its keys are all enumerable strings, so for-in lists them without making an array
      // (an inherited one, should Object.prototype have been given one, is checked too: never a wrong yes).
      "if (parsed) {",
      "for (const name in value) {",
      `if (name === "__proto__"${refused} || !${key}(name) || !${item}(value[name])) return false;`,
      "}",
      "} else {",
      "const names = Reflect.ownKeys(value);",
      "for (let index = 0; index < names.length; index += 1) {",
      "const name = names[index];",
      `if (typeof name !== "string" || name === "__proto__"${refused} || !${key}(name) || !${item}(value[name])) return false;`,
      "}",
      "}",
    ].join("\n");
  }

  #objectTest(shape: Readonly<Record<string, ZodNodeLike>>, scope: Scope): string {
    const lines = [this.#plainObjectTest(), "let keys = 0;", "for (const _name in value) keys += 1;", "let present = 0;", "let item;"];
    for (const name of Object.keys(shape)) {
      const literal = JSON.stringify(name);
      // A shape that declares a refused key: an object holding it is refused all the same (undeclared ones fail the count).
      if (scope.refused?.has(name) === true) lines.push(`if (Object.hasOwn(value, ${literal})) return false;`);
      // Read as zod reads it: a name Object.prototype also has (`constructor`) finds the inherited value when the object has none.
      lines.push(
        `item = value[${literal}];`,
        "if (item !== undefined) present += 1;",
        `if (!${this.node(shape[name] as ZodNodeLike, scope)}(item)) return false;`,
      );
    }
    // A key the shape does not declare (strict objects refuse it, others strip it; a `__proto__` key among them), or one holding undefined: not as it is.
    lines.push("if (present !== keys) return false;");
    return lines.join("\n");
  }

  /**
   * The output of `in` goes to `out`: the same value, as long as `in` only checks (a transform
   * compiles to never). A raw value's checks for keys at any depth become part of `out`'s walk.
   */
  #pipeTest(input: ZodNodeLike, output: ZodNodeLike, scope: Scope): string {
    const type = input._zod.def.type;
    const keyChecks = (input._zod.def.checks ?? []).filter((check) => this.#refusedKeysOf(check) !== undefined);
    if (keyChecks.length === 0 || (type !== "unknown" && type !== "any")) {
      return `if (!${this.node(input, scope)}(value) || !${this.node(output, scope)}(value)) return false;`;
    }
    const refused = new Set(scope.refused);
    for (const check of keyChecks) for (const key of this.#refusedKeysOf(check) ?? []) refused.add(key);
    const first = this.node(input, scope, keyChecks);
    const then = this.node(output, { names: new Map(), refused });
    return `if (!${first}(value) || !${then}(value)) return false;`;
  }
}

function runCheck(check: ZodCheckLike): Validator {
  const when = check._zod.def.when;
  return (value) => {
    payload.value = value;
    if (when !== undefined && !when(payload)) return true;
    const result = check._zod.check(payload);
    payload.value = undefined;
    if (payload.issues.length > 0 || result instanceof Promise) {
      payload.issues.length = 0;
      return false;
    }
    return true;
  };
}

/** Whether any object in `value`, at any depth, holds one of `keys` as its own key; too deep to tell (or a cycle) counts as yes. */
function holdsKey(value: unknown, keys: ReadonlySet<string>, depth: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (depth > 64) return true;
  for (const key of Reflect.ownKeys(value)) {
    if (typeof key === "string" && keys.has(key)) return true;
    if (holdsKey((value as Record<PropertyKey, unknown>)[key], keys, depth + 1)) return true;
  }
  return false;
}

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
 */

/** A value check compiled from one schema node. */
export type Validator = (value: unknown) => boolean;

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

const never: Validator = () => false;

// zod's checks only read the value and push issues: one payload serves every call (checks never nest).
const payload: ZodCheckPayload = { value: undefined, issues: [] };

/** Compiles `schema` (a zod 4 schema) into a {@link Validator}. */
export function compileValidator(schema: unknown, options: CompileValidatorOptions = {}): Validator {
  return compileNode(schema as ZodNodeLike, {
    seen: new Map(),
    plainCheck: options.plainCheck ?? (() => undefined),
    refusedKeysOf: options.refusedKeys ?? (() => undefined),
    refused: undefined,
  });
}

interface Compilation {
  readonly seen: Map<ZodNodeLike, Validator>;
  readonly plainCheck: (check: unknown) => Validator | undefined;
  readonly refusedKeysOf: (check: unknown) => ReadonlySet<string> | undefined;
  /** Keys every object walked here must not hold as its own (see `refusedKeys`). */
  readonly refused: ReadonlySet<string> | undefined;
}

function compileNode(node: ZodNodeLike, compilation: Compilation): Validator {
  const { seen } = compilation;
  const known = seen.get(node);
  if (known !== undefined) return known;
  // A recursive schema (z.json()) refers to itself: hand out a forwarder until the node is compiled.
  let compiled: Validator = never;
  seen.set(node, (value) => compiled(value));
  compiled = withChecks(node, typeCheck(node, compilation), compilation);
  seen.set(node, compiled);
  return compiled;
}

function withChecks(node: ZodNodeLike, base: Validator, compilation: Compilation, skipped: readonly unknown[] = []): Validator {
  const checks = (node._zod.def.checks ?? []).filter((check) => !skipped.includes(check));
  if (checks.length === 0) return base;
  if (!checks.every((check) => PURE_CHECKS.has(check._zod.def.check))) return never;
  const tests = checks.map((check) => compileCheck(check, compilation));
  if (tests.length === 1) {
    const [only] = tests as [Validator];
    return (value) => base(value) && only(value);
  }
  return (value) => {
    if (!base(value)) return false;
    for (const test of tests) if (!test(value)) return false;
    return true;
  };
}

/**
 * One check: the common built-in ones as plain tests of the value they already
 * passed the type of (string length, pattern, safe integer), a refinement by its
 * plain predicate when it has one, the others by running zod's own check.
 */
function compileCheck(check: ZodCheckLike, compilation: Compilation): Validator {
  const def = check._zod.def;
  if (def.check === "custom") return compilation.plainCheck(check) ?? runCheck(check);
  // Each test below is zod's own on a value of the node's type, which is all a check here ever sees (its `when`, if any, only skips other values).
  const { maximum, minimum, pattern } = def;
  // zod counts a string's code points where UTF-16 units leave it in doubt: units within the bound settle it; else zod's check runs.
  if (def.check === "max_length" && typeof maximum === "number") {
    const exact = runCheck(check);
    return (value) => (value as string).length <= maximum || exact(value);
  }
  if (def.check === "min_length" && typeof minimum === "number") {
    const exact = runCheck(check);
    return (value) => (value as string).length >= minimum * 2 || exact(value);
  }
  if (def.check === "string_format" && def.format === "regex" && pattern instanceof RegExp) {
    return (value) => {
      pattern.lastIndex = 0;
      return pattern.test(value as string);
    };
  }
  if (def.check === "number_format" && def.format === "safeint") return (value) => Number.isSafeInteger(value);
  return runCheck(check);
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

function typeCheck(node: ZodNodeLike, compilation: Compilation): Validator {
  const def = node._zod.def;
  switch (def.type) {
    case "string":
      return (value) => typeof value === "string";
    case "number":
      return (value) => typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return (value) => typeof value === "boolean";
    case "null":
      return (value) => value === null;
    case "unknown":
    case "any": {
      const { refused } = compilation;
      if (refused === undefined) return (value) => value !== undefined;
      return (value) => value !== undefined && !holdsKey(value, refused);
    }
    case "never":
      return never;
    case "literal":
    case "enum": {
      const values = node._zod.values;
      if (values === undefined) return never;
      return (value) => values.has(value);
    }
    case "optional": {
      const inner = compileNode(def.innerType as ZodNodeLike, compilation);
      return (value) => value === undefined || inner(value);
    }
    case "nullable": {
      const inner = compileNode(def.innerType as ZodNodeLike, compilation);
      return (value) => value === null || inner(value);
    }
    case "lazy":
      return compileNode((def.getter as () => ZodNodeLike)(), compilation);
    case "union": {
      const options = (def.options ?? []).map((option) => compileNode(option, compilation));
      return (value) => {
        for (let index = 0; index < options.length; index += 1) if ((options[index] as Validator)(value)) return true;
        return false;
      };
    }
    case "array": {
      const element = compileNode(def.element as ZodNodeLike, compilation);
      return (value) => {
        // An array with other own keys (`ops.extra`): zod's copy drops them.
        if (!Array.isArray(value) || Object.keys(value).length !== value.length) return false;
        for (let index = 0; index < value.length; index += 1) if (!element(value[index])) return false;
        return true;
      };
    }
    case "record":
      return recordCheck(compileNode(def.keyType as ZodNodeLike, compilation), compileNode(def.valueType as ZodNodeLike, compilation), compilation.refused);
    case "object":
      return objectCheck(node, compilation);
    case "pipe":
      return pipeCheck(def.in as ZodNodeLike, def.out as ZodNodeLike, compilation);
    default:
      // A transform, pipe, default, intersection...: zod decides.
      return never;
  }
}

/**
 * The output of `in` goes to `out`: the same value, as long as `in` only checks (a transform
 * compiles to never). A raw value's checks for keys at any depth become part of `out`'s walk.
 */
function pipeCheck(input: ZodNodeLike, output: ZodNodeLike, compilation: Compilation): Validator {
  const type = input._zod.def.type;
  const keyChecks = (input._zod.def.checks ?? []).filter((check) => compilation.refusedKeysOf(check) !== undefined);
  if (keyChecks.length === 0 || (type !== "unknown" && type !== "any")) {
    const first = compileNode(input, compilation);
    const then = compileNode(output, compilation);
    return (value) => first(value) && then(value);
  }
  const refused = new Set(compilation.refused);
  for (const check of keyChecks) for (const key of compilation.refusedKeysOf(check) ?? []) refused.add(key);
  // Compiled apart: the same node validates differently when it also refuses keys.
  const then = compileNode(output, { ...compilation, seen: new Map(), refused });
  const first = withChecks(input, (value) => value !== undefined, compilation, keyChecks);
  return (value) => first(value) && then(value);
}

/** Whether any object in `value`, at any depth, holds one of `keys` as its own key; too deep to tell (or a cycle) counts as yes. */
function holdsKey(value: unknown, keys: ReadonlySet<string>, depth = 0): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (depth > 64) return true;
  for (const key of Reflect.ownKeys(value)) {
    if (typeof key === "string" && keys.has(key)) return true;
    if (holdsKey((value as Record<PropertyKey, unknown>)[key], keys, depth + 1)) return true;
  }
  return false;
}

/** A plain object as JSON.parse makes it: zod accepts more, and then it decides. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function recordCheck(key: Validator, item: Validator, refused: ReadonlySet<string> | undefined): Validator {
  return (value) => {
    if (!isPlainObject(value)) return false;
    for (const name of Reflect.ownKeys(value)) {
      // zod drops a `__proto__` key from its output (the value as it is would differ) and refuses symbol keys.
      if (typeof name !== "string" || name === "__proto__" || refused?.has(name) === true || !key(name) || !item(value[name])) return false;
    }
    return true;
  };
}

function objectCheck(node: ZodNodeLike, compilation: Compilation): Validator {
  const shape = node._zod.def.shape ?? {};
  const names = Object.keys(shape);
  const validators = names.map((name) => compileNode(shape[name] as ZodNodeLike, compilation));
  // A name Object.prototype also has (`constructor`) is read only when the value holds it.
  const inherited = names.map((name) => name in Object.prototype);
  const count = names.length;
  // A shape that declares a refused key: an object holding it is refused all the same (undeclared ones fail the count below).
  const refusedNames = names.filter((name) => compilation.refused?.has(name) === true);
  return (value) => {
    if (!isPlainObject(value)) return false;
    for (let index = 0; index < refusedNames.length; index += 1) if (Object.hasOwn(value, refusedNames[index] as string)) return false;
    let keys = 0;
    for (const _name in value) keys += 1;
    let present = 0;
    for (let index = 0; index < count; index += 1) {
      const name = names[index] as string;
      const item = inherited[index] === true && !Object.hasOwn(value, name) ? undefined : value[name];
      if (item !== undefined) present += 1;
      if (!(validators[index] as Validator)(item)) return false;
    }
    // A key the shape does not declare (strict objects refuse it, others strip it; a `__proto__` key among them), or one holding undefined: not as it is.
    return present === keys;
  };
}

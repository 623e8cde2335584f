import { z } from "zod";

/** Reports one problem of a rule at a path below the value the rule checks. */
export type IssueSink = (path: PropertyKey[], message: string) => void;

/** A yes/no answer with the verdict of one of the schema's refinements. */
export type RulePredicate = (value: unknown) => boolean;

/**
 * Each refinement built here, by its zod check, with a plain predicate that gives
 * the same verdict without building an issue: the loader's compiled validator runs
 * it on a value that already passed the node's type and earlier checks, as zod
 * would, and leaves messages to zod.
 */
const predicates = new WeakMap<object, RulePredicate>();

/** The plain predicate of a zod check built here, or undefined for any other check. */
export function rulePredicateOf(check: unknown): RulePredicate | undefined {
  return typeof check === "object" && check !== null ? predicates.get(check) : undefined;
}

/** A refinement that reports `problem(value)`, when there is one, at the value's own path. */
export function problemCheck<T>(problem: (value: T) => string | undefined): z.core.$ZodCheck<T> {
  const check = z.superRefine<T>((value, context) => {
    const message = problem(value);
    if (message !== undefined) context.addIssue({ code: "custom", message });
  });
  predicates.set(check, (value) => problem(value as T) === undefined);
  return check;
}

// The predicate of a rules check only learns whether an issue was reported; rules never nest, so one flag serves.
let failed = false;
const markFailed: IssueSink = () => {
  failed = true;
};

/** A refinement whose `rules` report each problem through `issue`: one body for zod's messages and for the plain predicate. */
export function rulesCheck<T>(rules: (value: T, issue: IssueSink) => void): z.core.$ZodCheck<T> {
  const check = z.superRefine<T>((value, context) => rules(value, (path, message) => context.addIssue({ code: "custom", path, message })));
  predicates.set(check, (value) => {
    failed = false;
    rules(value as T, markFailed);
    const holds = !failed;
    failed = false;
    return holds;
  });
  return check;
}

const refusedKeys = new WeakMap<object, ReadonlySet<string>>();

/** The keys a check built by {@link keysCheck} is about, or undefined for any other check. */
export function refusedKeysOf(check: unknown): ReadonlySet<string> | undefined {
  return typeof check === "object" && check !== null ? refusedKeys.get(check) : undefined;
}

/**
 * A rules check that fails only when some object in the value, at any depth, holds one of
 * `keys` as its own key. A validator that visits every object of the value can refuse
 * those keys where it meets them instead of running the check.
 */
export function keysCheck<T>(keys: ReadonlySet<string>, rules: (value: T, issue: IssueSink) => void): z.core.$ZodCheck<T> {
  const check = rulesCheck(rules);
  refusedKeys.set(check, keys);
  return check;
}

/** A refinement with a yes/no test of its own, reporting `message` at the value's path when it fails. */
export function testCheck<T>(test: (value: T) => boolean, message: string): z.core.$ZodCheck<T> {
  const check = z.superRefine<T>((value, context) => {
    if (!test(value)) context.addIssue({ code: "custom", message });
  });
  predicates.set(check, (value) => test(value as T));
  return check;
}

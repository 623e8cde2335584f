/** The marker an error class of ours carries, shared by every installed copy of every package. */
export function errorMarker(name: string): symbol {
  return Symbol.for(`eleven-integrations.error.${name}`);
}

/** True when `value` is an error of the class named `name`, from any installed copy of its package. */
export function hasErrorMarker(value: unknown, name: string): boolean {
  return typeof value === "object" && value !== null && errorMarker(name) in value;
}

/** An instance of a class made by {@link markedError}: an `Error` whose `name` is the class's. */
export interface MarkedError<Name extends string> extends Error {
  readonly name: Name;
}

/**
 * The class {@link markedError} makes, declared rather than inferred: the inferred type
 * would carry every static of `ErrorConstructor`, `prepareStackTrace`, typed `any`, among them.
 */
export interface MarkedErrorClass<Name extends string> {
  new (message?: string, options?: ErrorOptions): MarkedError<Name>;
  readonly prototype: MarkedError<Name>;
  /** True for an instance of this class from any installed copy of its package. */
  isInstance<T>(this: abstract new (...args: never[]) => T, value: unknown): value is T;
}

/**
 * The base of an error class that is recognised across copies of a package
 * (`instanceof` fails when two versions are installed):
 *
 *     export class GrantError extends markedError("GrantError") { ... }
 *
 * gives the class its `name`, marks each instance with
 * `Symbol.for("eleven-integrations.error.GrantError")`, and a static
 * `GrantError.isInstance(value): value is GrantError`. The name is written
 * once, as a string, so it survives minification.
 */
export function markedError<const Name extends string>(name: Name): MarkedErrorClass<Name> {
  const marker = errorMarker(name);
  return class MarkedError extends Error {
    override readonly name: Name = name;

    constructor(message?: string, options?: ErrorOptions) {
      super(message, options);
      (this as unknown as Record<symbol, boolean>)[marker] = true;
    }

    /** True for an instance of this class from any installed copy of its package. */
    static isInstance<T>(this: abstract new (...args: never[]) => T, value: unknown): value is T {
      return typeof value === "object" && value !== null && marker in value;
    }
  };
}

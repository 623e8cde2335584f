import type { MappableErrorCode, ProviderErrors } from "@eleven-integrations/schema";
import { compileLookup, scalarText, type Lookup } from "./compile-lookup.js";

/** An integration's error dialect, compiled once at load. */
export interface CompiledProviderErrors {
  /** Whether a 2xx answer can say it failed (a `failed_when` is declared). */
  readonly detectsFailure: boolean;
  /** Whether the declaration reads a provider code or message (so error answers are worth reading). */
  readonly readsDetails: boolean;
  /** True when a parsed 2xx answer says it failed. */
  failed(body: unknown): boolean;
  /** The provider's own code and message, as found (strings or numbers as text), not yet cleaned. */
  details(body: unknown): { readonly code?: string; readonly message?: string };
  /** Our closed code for a provider code, or undefined when the map does not name it. */
  mapCode(code: string): MappableErrorCode | undefined;
  /** The declaration as written. */
  readonly declaration: ProviderErrors;
}

export function compileProviderErrors(errors: ProviderErrors): CompiledProviderErrors {
  const when = errors.failed_when;
  const whenLookup = when === undefined ? undefined : compileLookup(when.path);
  const expected = when !== undefined && Object.hasOwn(when, "equals") ? when.equals : undefined;
  const failed = (body: unknown): boolean => {
    if (when === undefined || whenLookup === undefined) return false;
    const value = whenLookup(body);
    if (when.present === true) return value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0);
    return value === expected;
  };
  const code = firstOf(errors.code);
  const message = firstOf(errors.message);
  const codes = new Map(Object.entries(errors.codes ?? {}));
  return Object.freeze({
    detectsFailure: when !== undefined,
    readsDetails: code !== undefined || message !== undefined,
    failed,
    details: (body: unknown) => {
      const found: { code?: string; message?: string } = {};
      const codeText = code?.(body);
      const messageText = message?.(body);
      if (codeText !== undefined) found.code = codeText;
      if (messageText !== undefined) found.message = messageText;
      return found;
    },
    mapCode: (providerCode: string) => codes.get(providerCode),
    declaration: errors,
  });
}

/** The first of the paths that holds a string or a number, as text. */
function firstOf(paths: string | readonly string[] | undefined): ((body: unknown) => string | undefined) | undefined {
  if (paths === undefined) return undefined;
  const lookups: Lookup[] = (typeof paths === "string" ? [paths] : paths).map(compileLookup);
  return (body) => {
    for (const lookup of lookups) {
      const text = scalarText(lookup(body));
      if (text !== undefined) return text;
    }
    return undefined;
  };
}

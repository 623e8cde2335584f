/** Shown instead of a query credential a provider echoed into its answer (a URL it returns, an error message quoting the request). */
export const CREDENTIAL_REDACTED = "[credential]";

/**
 * The value with every occurrence of the token in its strings (and keys) replaced: a token
 * that travels in the URL may come back in what the provider answers. Most answers hold no
 * copy of it, so one serialisation checks before any copy is made.
 */
export function withoutCredential<T>(value: T, token: string): T {
  const redact = (item: unknown): unknown => {
    if (typeof item === "string") return item.includes(token) ? item.split(token).join(CREDENTIAL_REDACTED) : item;
    if (Array.isArray(item)) return item.map(redact);
    if (item !== null && typeof item === "object") {
      const out = Object.create(null) as Record<string, unknown>;
      for (const key of Object.keys(item)) out[redact(key) as string] = redact((item as Record<string, unknown>)[key]);
      return out;
    }
    return item;
  };
  return JSON.stringify(value).includes(token) ? (redact(value) as T) : value;
}

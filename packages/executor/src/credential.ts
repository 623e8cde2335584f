/** The longest token sent; a grant carries at most 16 KiB in all. */
export const MAX_TOKEN_LENGTH = 16 * 1024;
// Visible ASCII only: a token becomes a header value, so it may not break out of it.
const TOKEN = /^[\x21-\x7e]+$/;

/** The token, or the reason it cannot be sent (the reason never quotes it). */
export function credentialToken(credential: unknown): { ok: true; token: string; kind: "pat" | "oauth" } | { ok: false; message: string } {
  const token = credential !== null && typeof credential === "object" ? (credential as { token?: unknown }).token : undefined;
  if (typeof token !== "string" || token === "") return { ok: false, message: "no credential was given for this integration" };
  if (token.length > MAX_TOKEN_LENGTH) return { ok: false, message: `the credential is longer than ${MAX_TOKEN_LENGTH} characters` };
  if (!TOKEN.test(token)) return { ok: false, message: "the credential holds characters a token cannot (spaces, controls or non-ASCII)" };
  const kind = (credential as { kind?: unknown }).kind === "oauth" ? "oauth" : "pat";
  return { ok: true, token, kind };
}

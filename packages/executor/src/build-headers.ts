import type { CompiledOperation } from "@eleven-integrations/loader";
import type { RenderedBody } from "./render-body.js";

/** Sent unless the manifest names its own; some APIs (GitHub's) refuse requests without one. */
export const DEFAULT_USER_AGENT = "eleven-integrations-executor";

/**
 * The request headers: `authorization` (`<scheme> <token>`, or the bare token for
 * `none`; the scheme of `kind`: `auth.oauth.authorization` for an OAuth token), then the manifest's headers, then `content-type` when there is a body.
 * No `accept-encoding` is ever sent, so bodies arrive as the bytes that are counted.
 */
export function buildHeaders(
  operation: CompiledOperation,
  token: string,
  body: RenderedBody | undefined,
  kind: "pat" | "oauth" = "pat",
  opHeaders: readonly (readonly [string, string])[] = [],
): Record<string, string> {
  const headers: Record<string, string> = {};
  const place = credentialPlace(operation, kind);
  if (place === undefined) {
    // A token from the OAuth flow may need another scheme than a personal token (Linear: Bearer vs the bare key).
    const scheme = kind === "oauth" ? operation.oauthAuthorization : operation.authorization;
    headers.authorization = scheme === "none" ? token : `${scheme} ${token}`;
  } else if (place.in === "header") {
    // The bare token under its own header (X-Figma-Token); no Authorization at all.
    headers[place.name.toLowerCase()] = token;
  }
  let userAgent = false;
  for (const [name, value] of operation.headers) {
    headers[name] = value;
    if (name.toLowerCase() === "user-agent") userAgent = true;
  }
  // The loader refuses an op header that auth.headers or auth.credential sets, and every executor-owned name.
  for (const [name, value] of opHeaders) {
    headers[name] = value;
    if (name.toLowerCase() === "user-agent") userAgent = true;
  }
  if (!userAgent) headers["user-agent"] = DEFAULT_USER_AGENT;
  if (body !== undefined) headers["content-type"] = body.contentType;
  return headers;
}

/** Where this run's token travels instead of `Authorization`: `auth.credential`, for a personal token only. */
export function credentialPlace(operation: CompiledOperation, kind: "pat" | "oauth"): CompiledOperation["credential"] {
  return kind === "pat" ? operation.credential : undefined;
}

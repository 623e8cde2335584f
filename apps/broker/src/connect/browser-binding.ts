import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { STATE_TTL_SECONDS } from "./oauth-state.js";

/**
 * The cookie that binds a connect flow to the browser that started it. The
 * `__Host-` prefix makes browsers refuse it unless it is Secure, host-only
 * and for Path=/, so no sibling subdomain can plant one (login CSRF).
 */
export const BINDING_COOKIE = "__Host-eleven-connect";
const NONCE = /^[A-Za-z0-9_-]{43}$/;

/** The binding nonce this request's browser holds, or undefined. */
export function bindingNonce(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (header === undefined) return undefined;
  let found: string | undefined;
  for (const pair of header.split(";")) {
    const index = pair.indexOf("=");
    if (index === -1 || pair.slice(0, index).trim() !== BINDING_COOKIE) continue;
    // Two cookies of our name: neither is trusted.
    if (found !== undefined) return undefined;
    found = pair.slice(index + 1).trim();
  }
  return found !== undefined && NONCE.test(found) ? found : undefined;
}

/** sha-256 of the nonce, unpadded base64url: what travels in the sealed state. */
export function bindingDigest(nonce: string): string {
  return createHash("sha256").update(nonce, "utf8").digest("base64url");
}

/**
 * Sets (or renews) the binding cookie and returns the digest to seal into the
 * state. A browser that already holds a nonce keeps it, so two flows started
 * in two tabs of one browser both finish.
 */
export function bindBrowser(request: FastifyRequest, reply: FastifyReply): string {
  const nonce = bindingNonce(request) ?? randomBytes(32).toString("base64url");
  reply.header("set-cookie", `${BINDING_COOKIE}=${nonce}; Max-Age=${STATE_TTL_SECONDS}; Path=/; HttpOnly; Secure; SameSite=Lax`);
  return bindingDigest(nonce);
}

/** True when this request's browser holds the nonce whose digest the state carries (compared in constant time). */
export function isSameBrowser(request: FastifyRequest, digest: string): boolean {
  const nonce = bindingNonce(request);
  if (nonce === undefined) return false;
  const expected = Buffer.from(digest, "utf8");
  const actual = Buffer.from(bindingDigest(nonce), "utf8");
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

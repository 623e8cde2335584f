// A counting stand-in for a token endpoint whose refresh tokens rotate: each
// refresh token is accepted once and answered with a new one; presenting it
// again is `400 {"error":"invalid_grant"}`. This is the documented behaviour of
// refresh token rotation (OAuth 2.0 Security Best Current Practice, RFC 9700
// §4.14.2: https://www.rfc-editor.org/rfc/rfc9700#section-4.14.2) with the
// error response of RFC 6749 §5.2 (https://datatracker.ietf.org/doc/html/rfc6749#section-5.2).
// It is a loopback TLS server for the test manifest's host, reached through a
// dispatcher that verifies its certificate for that host against a test CA.
import { createLoopbackDispatcher, createTestCertificates } from "@eleven-integrations/test-support";
import Fastify from "fastify";
import type { Dispatcher } from "undici";
import { AUTH_HOST } from "./test-registry.js";

export interface RotatingTokenEndpoint {
  dispatcher: Dispatcher;
  /** Every refresh token presented, in order: one entry per provider call. */
  calls: string[];
  /** Refresh tokens the endpoint will accept once. */
  issue(refreshToken: string): void;
  close(): Promise<void>;
}

export async function startRotatingTokenEndpoint(options: { delayMs: number }): Promise<RotatingTokenEndpoint> {
  const pems = await createTestCertificates([AUTH_HOST]);
  const live = new Set<string>();
  const calls: string[] = [];
  let generation = 0;
  const server = Fastify({ https: { key: pems.key, cert: pems.cert } });
  server.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_request, body, done) =>
    done(null, new URLSearchParams(String(body))),
  );
  server.post("/token", async (request, reply) => {
    const form = request.body as URLSearchParams;
    const presented = form.get("refresh_token") ?? "";
    calls.push(presented);
    await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    reply.header("cache-control", "no-store");
    if (form.get("grant_type") !== "refresh_token" || !live.delete(presented)) {
      return reply.code(400).send({ error: "invalid_grant", error_description: "The refresh token is invalid, expired or already used" });
    }
    generation += 1;
    const next = `rt-rotated-${generation}`;
    live.add(next);
    return { access_token: `at-${generation}`, token_type: "Bearer", expires_in: 3600, refresh_token: next, scope: "openid" };
  });
  await server.listen({ host: "127.0.0.1", port: 0 });
  const address = server.server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  const dispatcher = createLoopbackDispatcher(pems.ca, { [AUTH_HOST]: port });
  return {
    dispatcher,
    calls,
    issue: (refreshToken) => void live.add(refreshToken),
    close: async () => {
      await dispatcher.close();
      await server.close();
    },
  };
}

// Stand-ins for the providers' token revocation endpoints, each answering as its
// documentation says (quirks included), on one loopback TLS server that routes by
// host name; the dispatcher verifies each host's certificate against a test CA.
// - Google, RFC 7009 at https://oauth2.googleapis.com/revoke: form `token`, 200 when
//   revoked, 400 `{"error":"invalid_token"}` otherwise
//   (https://developers.google.com/identity/protocols/oauth2/web-server#tokenrevoke).
// - Box, RFC 7009-like at https://api.box.com/oauth2/revoke: form client_id,
//   client_secret, token; 200 with an empty body (https://developer.box.com/reference/post-oauth2-revoke/).
// - Zoom at https://zoom.us/oauth/revoke: HTTP Basic client credentials, form `token`,
//   200 `{"status":"success"}` (https://developers.zoom.us/docs/integrations/oauth/#revoking-an-access-token).
// - GitHub, `DELETE /applications/{client_id}/token` with HTTP Basic client credentials
//   and JSON `{ access_token }`: 204; 422 "Validation Failed" for a token it does not know;
//   401 "Bad credentials" for wrong client credentials
//   (https://docs.github.com/en/rest/apps/oauth-applications#delete-an-app-token).
// - Slack `auth.revoke`, the token as the bearer: always 200, `{ ok: true, revoked: true }`
//   or `{ ok: false, error: "invalid_auth" }` (https://api.slack.com/methods/auth.revoke).
// - Stripe Connect `POST /oauth/deauthorize`, the platform's secret key as the bearer,
//   form client_id and stripe_user_id: 200 `{ stripe_user_id }`; 400 `invalid_client` for an
//   account not connected to the platform (https://docs.stripe.com/connect/oauth-reference#post-deauthorize).
import { createLoopbackDispatcher, createTestCertificates } from "@eleven-integrations/test-support";
import Fastify, { type FastifyReply, type FastifyRequest } from "fastify";
import type { Dispatcher } from "undici";

export const REVOCATION_HOSTS = [
  "acme.my.salesforce.com",
  "oauth2.googleapis.com",
  "api.box.com",
  "zoom.us",
  "api.github.com",
  "slack.com",
  "connect.stripe.com",
  "gitlab.com",
  "app.asana.com",
];

export interface SeenRevocation {
  host: string;
  method: string;
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: string;
}

export interface RevocationStandIn {
  dispatcher: Dispatcher;
  /** Every request, as received. */
  seen: SeenRevocation[];
  /** Tokens (or Stripe accounts) the providers will revoke once. */
  live: Set<string>;
  /** While set, every host answers 503. */
  setDown(down: boolean): void;
  close(): Promise<void>;
}

const basicOf = (clientId: string, clientSecret: string) => `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`;

export async function startRevocationStandIn(app: { clientId: string; clientSecret: string }): Promise<RevocationStandIn> {
  const pems = await createTestCertificates(REVOCATION_HOSTS);
  const seen: SeenRevocation[] = [];
  const live = new Set<string>();
  let down = false;
  const server = Fastify({ https: { key: pems.key, cert: pems.cert } });
  server.removeAllContentTypeParsers();
  server.addContentTypeParser("*", { parseAs: "string" }, (_request, body, done) => done(null, body));

  const rfc7009 = (request: FastifyRequest, reply: FastifyReply, host: string, answer: () => unknown) => {
    const form = new URLSearchParams(String(request.body ?? ""));
    const token = form.get("token") ?? "";
    const authenticated =
      request.headers.authorization === basicOf(app.clientId, app.clientSecret) ||
      (form.get("client_id") === app.clientId && form.get("client_secret") === app.clientSecret);
    if (host !== "oauth2.googleapis.com" && !authenticated) return reply.code(401).send({ error: "invalid_client" });
    if (!live.delete(token)) return reply.code(400).send({ error: "invalid_token", error_description: "Token expired or revoked" });
    return reply.code(200).send(answer());
  };

  server.all("/*", async (request, reply) => {
    const host = (request.headers.host ?? "").replace(/:\d+$/, "");
    seen.push({
      host,
      method: request.method,
      path: request.url,
      authorization: request.headers.authorization,
      contentType: request.headers["content-type"],
      body: String(request.body ?? ""),
    });
    if (down) return reply.code(503).send("Service Unavailable");
    const route = `${request.method} ${host}${request.url}`;
    switch (route) {
      case "POST oauth2.googleapis.com/revoke":
      case "POST gitlab.com/oauth/revoke":
      case "POST app.asana.com/-/oauth_revoke":
      // Salesforce: https://help.salesforce.com/s/articleView?id=sf.remoteaccess_revoke_token.htm (form `token`, 200; 400 `unsupported_token_type` / invalid token).
      case "POST acme.my.salesforce.com/services/oauth2/revoke":
        return rfc7009(request, reply, host, () => ({}));
      case "POST api.box.com/oauth2/revoke":
        return rfc7009(request, reply, host, () => "");
      case "POST zoom.us/oauth/revoke":
        return rfc7009(request, reply, host, () => ({ status: "success" }));
      case `DELETE api.github.com/applications/${app.clientId}/token`: {
        if (request.headers.authorization !== basicOf(app.clientId, app.clientSecret)) return reply.code(401).send({ message: "Bad credentials" });
        const token = (JSON.parse(String(request.body)) as { access_token?: string }).access_token ?? "";
        if (!live.delete(token)) return reply.code(422).send({ message: "Validation Failed", errors: [], documentation_url: "https://docs.github.com/rest" });
        return reply.code(204).send();
      }
      case "POST slack.com/api/auth.revoke": {
        const token = (request.headers.authorization ?? "").replace(/^Bearer /, "");
        return live.delete(token) ? { ok: true, revoked: true } : { ok: false, error: "invalid_auth" };
      }
      case "POST connect.stripe.com/oauth/deauthorize": {
        if (request.headers.authorization !== `Bearer ${app.clientSecret}`)
          return reply.code(401).send({ error: { type: "invalid_request_error", message: "Invalid API Key provided" } });
        const form = new URLSearchParams(String(request.body));
        const account = form.get("stripe_user_id") ?? "";
        if (form.get("client_id") !== app.clientId || !live.delete(account)) {
          return reply.code(400).send({ error: "invalid_client", error_description: `${account} is not connected to the platform` });
        }
        return { stripe_user_id: account };
      }
      default:
        return reply.code(404).send({ message: "Not Found" });
    }
  });
  await server.listen({ host: "127.0.0.1", port: 0 });
  const address = server.server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  const dispatcher = createLoopbackDispatcher(pems.ca, Object.fromEntries(REVOCATION_HOSTS.map((host) => [host, port])));
  return {
    dispatcher,
    seen,
    live,
    setDown: (value) => void (down = value),
    close: async () => {
      await dispatcher.close();
      await server.close();
    },
  };
}

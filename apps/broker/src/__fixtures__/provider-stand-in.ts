import { createHash, randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { createLoopbackDispatcher, createTestCertificates } from "@eleven-integrations/test-support";
import Fastify, { type FastifyInstance } from "fastify";
import type { Dispatcher } from "undici";
import type { ProviderDoc, TokenAnswer } from "./provider-docs.js";

/** What the stand-in's token endpoint received, as the provider would read it. */
export interface RecordedTokenRequest {
  contentType: string;
  authorization: string | undefined;
  accept: string | undefined;
  params: Record<string, string>;
}

/** What the provider's API answers at the identity op's host (its documented example), when the manifest declares one. */
export interface IdentityStandIn {
  host: string;
  response: { status: number; headers: Record<string, string>; body: unknown };
}

export interface ProviderStandIn {
  doc: ProviderDoc;
  /** Every identity request: the path and the bearer it carried. */
  identityRequests: { path: string; authorization: string | undefined }[];
  /** Makes the identity host answer this status (401, 403, 503...) instead of the documented example, until undefined. */
  setIdentityStatus(status: number | undefined): void;
  /** Routes the token host to the loopback server, verifying its certificate against the test CA. */
  dispatcher: Dispatcher;
  /** Every token request, in order. */
  requests: RecordedTokenRequest[];
  /** Every access token the endpoint issued, in order. */
  issuedAccessTokens: string[];
  /** The member consents at `authorizeUrl`: a fresh code is issued for its client, redirect URI and PKCE challenge; returns the provider's redirect back. */
  consent(authorizeUrl: URL): URL;
  /** The member refuses at `authorizeUrl`: the provider's documented redirect with `error=access_denied`. */
  deny(authorizeUrl: URL): URL;
  /** Makes the token endpoint answer 503 (an outage) until switched back. */
  setDown(down: boolean): void;
  close(): Promise<void>;
}

interface IssuedCode {
  clientId: string;
  redirectUri: string;
  challenge: string | undefined;
}

/**
 * A provider's token endpoint on a real fastify over loopback TLS (a test CA
 * certificate for the provider's real host name), answering as the provider's
 * documentation shows (`ProviderDoc`): the client authentication and body
 * encoding it documents, one-use codes, PKCE where it documents PKCE, refresh
 * tokens (rotated or kept as documented), and its documented refusals.
 */
export async function startProviderStandIn(
  doc: ProviderDoc,
  client: { clientId: string; clientSecret: string },
  identity?: IdentityStandIn,
): Promise<ProviderStandIn> {
  const tokenUrl = new URL(doc.tokenUrl);
  const hosts = [...new Set([tokenUrl.hostname, ...(identity === undefined ? [] : [identity.host])])];
  const pems = await createTestCertificates(hosts);
  const identityRequests: { path: string; authorization: string | undefined }[] = [];
  let identityStatus: number | undefined;
  const codes = new Map<string, IssuedCode>();
  const refreshTokens = new Set<string>();
  const requests: RecordedTokenRequest[] = [];
  const issuedAccessTokens: string[] = [];
  let down = false;

  const app: FastifyInstance = Fastify({ https: { key: pems.key, cert: pems.cert } });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "string" }, (_request, body, done) => done(null, body));
  // The identity host: anything but the token endpoint gets the documented identity answer.
  app.addHook("onRequest", async (request, reply) => {
    const host = (request.headers.host ?? "").replace(/:\d+$/, "");
    if (identity === undefined || host !== identity.host || (host === tokenUrl.hostname && request.url.split("?")[0] === tokenUrl.pathname)) return;
    identityRequests.push({ path: request.url, authorization: request.headers.authorization });
    if (identityStatus !== undefined)
      return reply
        .code(identityStatus)
        .header("content-type", "application/json")
        .send(JSON.stringify({ message: "refused" }));
    return reply.code(identity.response.status).headers(identity.response.headers).send(JSON.stringify(identity.response.body));
  });
  app.post(tokenUrl.pathname, async (request, reply) => {
    const contentType = String(request.headers["content-type"] ?? "");
    const params = parseBody(contentType, String(request.body ?? ""));
    requests.push({ contentType, authorization: request.headers.authorization, accept: request.headers.accept, params: params ?? {} });
    const send = (answer: TokenAnswer) => {
      reply.code(answer.status);
      for (const [name, value] of Object.entries(answer.headers ?? {})) reply.header(name, value);
      if (doc.formUnlessJsonAccepted === true && !String(request.headers.accept ?? "").includes("application/json")) {
        return reply.header("content-type", "application/x-www-form-urlencoded").send(new URLSearchParams(answer.body as Record<string, string>).toString());
      }
      return reply.header("content-type", "application/json; charset=utf-8").send(JSON.stringify(answer.body));
    };
    if (down) return reply.code(503).header("content-type", "text/html").send("<html><body>Service Unavailable</body></html>");
    if (params === undefined || (doc.encoding === "json") !== contentType.startsWith("application/json")) return send(doc.refusal("bad_request"));
    if (!authenticated(doc, request.headers.authorization, params, client)) return send(doc.refusal("bad_client"));

    if (params.grant_type === "refresh_token") {
      const presented = params.refresh_token ?? "";
      if (doc.refresh === undefined || !refreshTokens.has(presented)) return send(doc.refusal("bad_refresh"));
      const access = token("access");
      issuedAccessTokens.push(access);
      let refresh: string | undefined;
      if (doc.refresh === "rotate") {
        refreshTokens.delete(presented);
        refresh = token("refresh");
        refreshTokens.add(refresh);
      } else if (doc.refresh === "same") refresh = presented;
      return send(doc.success({ grant: "refresh", access, refresh }));
    }

    const code = params.code ?? "";
    const issued = codes.get(code);
    codes.delete(code);
    if (issued === undefined || issued.clientId !== client.clientId) return send(doc.refusal("bad_code"));
    if (params.redirect_uri !== undefined && params.redirect_uri !== issued.redirectUri) return send(doc.refusal("bad_code"));
    if (
      doc.pkce &&
      issued.challenge !== undefined &&
      createHash("sha256")
        .update(params.code_verifier ?? "")
        .digest("base64url") !== issued.challenge
    ) {
      return send(doc.refusal("bad_code"));
    }
    const access = token("access");
    issuedAccessTokens.push(access);
    let refresh: string | undefined;
    if (doc.refresh !== undefined) {
      refresh = token("refresh");
      refreshTokens.add(refresh);
    }
    return send(doc.success({ grant: "code", access, refresh }));
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  const dispatcher = createLoopbackDispatcher(pems.ca, Object.fromEntries(hosts.map((host) => [host, port])));

  const redirectBack = (authorizeUrl: URL, query: Record<string, string>) => {
    const back = new URL(authorizeUrl.searchParams.get("redirect_uri") as string);
    for (const [name, value] of Object.entries(query)) back.searchParams.set(name, value);
    const state = authorizeUrl.searchParams.get("state");
    if (state !== null) back.searchParams.set("state", state);
    return back;
  };

  return {
    doc,
    identityRequests,
    setIdentityStatus: (status) => void (identityStatus = status),
    dispatcher,
    requests,
    issuedAccessTokens,
    consent(authorizeUrl) {
      const code = token("code");
      const challenge = authorizeUrl.searchParams.get("code_challenge") ?? undefined;
      codes.set(code, {
        clientId: authorizeUrl.searchParams.get("client_id") ?? "",
        redirectUri: authorizeUrl.searchParams.get("redirect_uri") ?? "",
        challenge: authorizeUrl.searchParams.get("code_challenge_method") === "S256" ? challenge : undefined,
      });
      return redirectBack(authorizeUrl, { code, ...doc.callbackExtras });
    },
    deny(authorizeUrl) {
      return redirectBack(authorizeUrl, doc.denied);
    },
    setDown(value) {
      down = value;
    },
    async close() {
      await dispatcher.close();
      await app.close();
    },
  };
}

function token(kind: string): string {
  return `${kind}-${randomBytes(18).toString("base64url")}`;
}

function parseBody(contentType: string, body: string): Record<string, string> | undefined {
  if (contentType.startsWith("application/json")) {
    try {
      const json = JSON.parse(body) as unknown;
      if (json === null || typeof json !== "object" || Array.isArray(json)) return undefined;
      return Object.fromEntries(Object.entries(json).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
    } catch {
      return undefined;
    }
  }
  if (contentType.startsWith("application/x-www-form-urlencoded")) return Object.fromEntries(new URLSearchParams(body));
  return undefined;
}

/** The client authentication the provider documents, and only that one. */
function authenticated(
  doc: ProviderDoc,
  authorization: string | undefined,
  params: Record<string, string>,
  client: { clientId: string; clientSecret: string },
): boolean {
  if (doc.clientAuth === "body") {
    if (authorization !== undefined) return false;
    return params.client_secret === client.clientSecret && (params.client_id === undefined || params.client_id === client.clientId);
  }
  if (params.client_secret !== undefined || authorization === undefined || !authorization.startsWith("Basic ")) return false;
  const [id, secret] = Buffer.from(authorization.slice(6), "base64")
    .toString("utf8")
    .split(":")
    .map((part) => decodeURIComponent(part.replace(/\+/g, " ")));
  return id === client.clientId && secret === client.clientSecret;
}

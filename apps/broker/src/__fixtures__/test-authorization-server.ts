import { generateKeyPairSync } from "node:crypto";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import Provider, { type ProviderClient } from "oidc-provider";
import { createLoopbackDispatcher, createTestCertificates } from "@eleven-integrations/test-support";
import type { Dispatcher } from "undici";
import { AUTH_HOST, AUTH_ORIGIN, CLIENT_ID, CLIENT_SECRET, PUBLIC_URL } from "./test-registry.js";

export const ACCOUNT_ID = "member-1";

/** What the next interaction answers: the member approves, or refuses. */
export type InteractionOutcome = "approve" | "deny";

export interface TestAuthorizationServer {
  /** Routes `auth.example.test:443` to the loopback server, verifying its certificate against the test CA. */
  dispatcher: Dispatcher;
  /** POSTs the token endpoint received so far. */
  tokenRequests(): number;
  setOutcome(outcome: InteractionOutcome): void;
  close(): Promise<void>;
}

/**
 * oidc-provider as the test manifest's authorization server: issuer
 * `https://auth.example.test`, served over TLS on 127.0.0.1 with a self-signed
 * certificate for that name, PKCE required, refresh tokens rotated. Its
 * interaction completes login and consent at once (or refuses, when told to).
 */
export async function startAuthorizationServer(): Promise<TestAuthorizationServer> {
  const pems = await createTestCertificates([AUTH_HOST]);

  const provider = new Provider(AUTH_ORIGIN, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [`${PUBLIC_URL}/connect/callback`],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    pkce: { required: () => true },
    rotateRefreshToken: true,
    issueRefreshToken: async (_context: unknown, client: ProviderClient) => client.grantTypeAllowed("refresh_token"),
    findAccount: async (_context: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub }) }),
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_context: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    cookies: { keys: ["test-cookie-signing-key-0123456789"] },
    jwks: { keys: [generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" })] },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 3600, IdToken: 600, Interaction: 600, RefreshToken: 3600, Session: 3600 },
  });
  // The provider reports expected refusals (a replayed code, a bad refresh token) as events; the tests check the answers.
  provider.on("server_error", (_context, error) => console.error("oidc-provider server_error", error));

  let outcome: InteractionOutcome = "approve";
  let tokenRequests = 0;
  const handle = provider.callback();
  const server: Server = createServer({ key: pems.key, cert: pems.cert }, (request, response) => {
    const path = (request.url ?? "").split("?")[0] ?? "";
    if (request.method === "POST" && path === "/token") tokenRequests += 1;
    if (path.startsWith("/interaction/")) {
      void (async () => {
        const details = await provider.interactionDetails(request, response);
        if (outcome === "deny") {
          await provider.interactionFinished(
            request,
            response,
            { error: "access_denied", error_description: "the member said no" },
            { mergeWithLastSubmission: false },
          );
          return;
        }
        const grant = new provider.Grant({ accountId: ACCOUNT_ID, clientId: String(details.params.client_id) });
        grant.addOIDCScope(String(details.params.scope));
        const grantId = await grant.save();
        await provider.interactionFinished(request, response, { login: { accountId: ACCOUNT_ID }, consent: { grantId } }, { mergeWithLastSubmission: false });
      })().catch((error: unknown) => {
        response.statusCode = 500;
        response.end(String(error));
      });
      return;
    }
    handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;

  const dispatcher = createLoopbackDispatcher(pems.ca, { [AUTH_HOST]: port });

  return {
    dispatcher,
    tokenRequests: () => tokenRequests,
    setOutcome: (next) => {
      outcome = next;
    },
    close: async () => {
      await dispatcher.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

import type { AddressInfo } from "node:net";
import { generateBotKeys, openSealed, ready } from "@eleven-integrations/grants";
import { loadRegistry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";
import type { Manifest } from "@eleven-integrations/schema";
import type { FastifyInstance } from "fastify";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import { Browser } from "../__fixtures__/browser.js";
import { identityExample, type IdentityExample } from "../__fixtures__/identity-examples.js";
import { zendeskAcme } from "../__fixtures__/provider-docs.js";
import { startProviderStandIn, type ProviderStandIn } from "../__fixtures__/provider-stand-in.js";
import { CLIENT_ID, CLIENT_SECRET, PUBLIC_URL, RETURN_TO, randomKey } from "../__fixtures__/test-registry.js";
import type { TokenBundle } from "./token-bundle.js";

// Zendesk connects on the member's own subdomain: authorize, token and identity all on https://acme.zendesk.com.
// The stand-in's dispatcher routes only acme.zendesk.com, so a request to any other host fails.
const shipped = loadRegistry(manifestFiles);
const zendesk = shipped.get("zendesk") as Manifest;
let client: { publicKey: string; secretKey: string };
let standIn: ProviderStandIn;
let app: FastifyInstance;
let broker: string;
let example: IdentityExample;

beforeAll(async () => {
  await ready();
  client = generateBotKeys();
  example = identityExample(zendesk) as IdentityExample;
  standIn = await startProviderStandIn(
    zendeskAcme,
    { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET },
    { host: "acme.zendesk.com", response: example.response },
  );
  app = buildApp({
    registry: shipped,
    publicUrl: PUBLIC_URL,
    stateKey: randomKey(),
    oauthApps: { zendesk: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET } },
    allowedReturnTo: [RETURN_TO],
    dispatcher: standIn.dispatcher,
    logger: false,
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  broker = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await app?.close();
  await standIn?.close();
});

const startUrl = (tenant: string) => `${broker}/connect/zendesk/start?client_key=${client.publicKey}&return_to=${encodeURIComponent(RETURN_TO)}${tenant}`;
const openBundle = (sealed: string) => JSON.parse(new TextDecoder().decode(openSealed(sealed, client))) as TokenBundle;
const tokensOf = (location: string | undefined) => new URLSearchParams((location as string).slice(RETURN_TO.length + 1)).get("tokens") as string;

async function refresh(body: Record<string, unknown>) {
  const response = await request(`${broker}/connect/zendesk/refresh`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.statusCode, body: (await response.body.json()) as { tokens?: string; error?: { code: string; message: string } } };
}

describe("connecting Zendesk on the member's subdomain", () => {
  it("?subdomain=acme reaches acme.zendesk.com to authorize, exchange and identify; the bundle carries the connection and the account; a refresh takes the same connection", async () => {
    const browser = new Browser();
    const started = await browser.get(startUrl("&subdomain=acme"));
    expect(started.status).toBe(302);
    const authorize = new URL(started.location as string);
    expect(authorize.origin + authorize.pathname).toBe("https://acme.zendesk.com/oauth/authorizations/new");
    expect(authorize.searchParams.get("scope")).toBe("tickets:read tickets:write users:read");
    expect(authorize.searchParams.has("subdomain")).toBe(false);

    const tokenRequests = standIn.requests.length;
    const identityRequests = standIn.identityRequests.length;
    const callback = standIn.consent(authorize);
    const connected = await browser.get(`${broker}${callback.pathname}${callback.search}`);
    expect(connected.status).toBe(302);
    const bundle = openBundle(tokensOf(connected.location));
    expect(standIn.requests.length).toBe(tokenRequests + 1);
    expect(standIn.requests.at(-1)?.params).toMatchObject({ grant_type: "authorization_code", client_id: CLIENT_ID });
    expect(bundle).toMatchObject({
      v: 1,
      integration: "zendesk",
      access_token: standIn.issuedAccessTokens.at(-1),
      connection: { subdomain: "acme" },
      account: example.account,
    });
    expect(standIn.identityRequests.length).toBe(identityRequests + 1);
    expect(standIn.identityRequests.at(-1)?.path.startsWith("/api/v2/")).toBe(true);
    expect(standIn.identityRequests.at(-1)?.authorization).toBe(`Bearer ${bundle.access_token}`);

    // The token URL is on the tenant host too: the refresh needs the bundle's connection, and names the setting without it.
    const missing = await refresh({ refresh_token: bundle.refresh_token, client_key: client.publicKey, refresh_binding: bundle.refresh_binding });
    expect(missing.status).toBe(400);
    expect(missing.body.error?.code).toBe("invalid_body");
    expect(missing.body.error?.message).toContain("subdomain");
    const evil = await refresh({
      refresh_token: bundle.refresh_token,
      client_key: client.publicKey,
      refresh_binding: bundle.refresh_binding,
      connection: { subdomain: "evil.com" },
    });
    expect(evil.status).toBe(400);
    expect(evil.body.error?.message).not.toContain("evil.com");
    const before = standIn.requests.length;
    const refreshed = await refresh({
      refresh_token: bundle.refresh_token,
      client_key: client.publicKey,
      refresh_binding: bundle.refresh_binding,
      connection: bundle.connection,
    });
    expect(refreshed.status).toBe(200);
    expect(standIn.requests.length).toBe(before + 1);
    expect(standIn.requests.at(-1)?.params.grant_type).toBe("refresh_token");
    expect(openBundle(refreshed.body.tokens as string)).toMatchObject({ access_token: standIn.issuedAccessTokens.at(-1), connection: { subdomain: "acme" } });
  });

  it("a start without the subdomain is 400 naming it, and nothing is created", async () => {
    const browser = new Browser();
    const response = await browser.get(startUrl(""));
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toMatchObject({ error: { code: "invalid_query", message: expect.stringContaining("subdomain") } });
    expect(response.headers["set-cookie"]).toBeUndefined();
    expect(response.location).toBeUndefined();
  });

  it.each(["evil.com", "a.b", "ACME", "a".repeat(64), "acme%2Fevil", "-acme"])(
    "subdomain=%s is 400 naming the setting (not the value), and nothing is sealed",
    async (value) => {
      const browser = new Browser();
      const response = await browser.get(startUrl(`&subdomain=${value}`));
      expect(response.status).toBe(400);
      const body = JSON.parse(response.body) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("invalid_query");
      expect(body.error.message).toContain("subdomain");
      expect(body.error.message).not.toContain(decodeURIComponent(value));
      expect(response.headers["set-cookie"]).toBeUndefined();
      expect(response.location).toBeUndefined();
    },
  );

  it("the tenant is the sealed one: a tampered state is refused before any token request, and a subdomain added to the callback changes nothing", async () => {
    const browser = new Browser();
    const authorize = new URL((await browser.get(startUrl("&subdomain=acme"))).location as string);
    const callback = standIn.consent(authorize);
    const state = callback.searchParams.get("state") as string;
    const before = standIn.requests.length;

    const tampered = new URL(callback);
    tampered.searchParams.set("state", `${state.slice(0, 40)}${state[40] === "A" ? "B" : "A"}${state.slice(41)}`);
    const refused = await browser.get(`${broker}${tampered.pathname}${tampered.search}`);
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body)).toMatchObject({ error: { code: "invalid_state" } });
    expect(standIn.requests.length).toBe(before);

    const steered = new URL(callback);
    steered.searchParams.set("subdomain", "evil");
    const connected = await browser.get(`${broker}${steered.pathname}${steered.search}`);
    expect(connected.status).toBe(302);
    expect(standIn.requests.length).toBe(before + 1);
    expect(openBundle(tokensOf(connected.location)).connection).toEqual({ subdomain: "acme" });
  });

  it("an app-scheme return_to: the confirmation page's continue goes to the sealed tenant's authorize URL", async () => {
    const appScheme = "com.example.app:/connected";
    const confirming = buildApp({
      registry: shipped,
      publicUrl: PUBLIC_URL,
      stateKey: randomKey(),
      oauthApps: { zendesk: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET } },
      allowedReturnTo: [appScheme],
      dispatcher: standIn.dispatcher,
      logger: false,
    });
    try {
      const started = await confirming.inject({
        method: "GET",
        url: `/connect/zendesk/start?client_key=${client.publicKey}&return_to=${encodeURIComponent(appScheme)}&subdomain=acme`,
      });
      expect(started.statusCode).toBe(200);
      const state = /name="state" value="([^"]+)"/.exec(started.body)?.[1] ?? "";
      const cookie = String([started.headers["set-cookie"]].flat()[0]).split(";")[0] as string;
      const confirmed = await confirming.inject({
        method: "POST",
        url: "/connect/zendesk/start/confirm",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: PUBLIC_URL, cookie },
        payload: new URLSearchParams({ state, subdomain: "evil" }).toString(),
      });
      expect(confirmed.statusCode).toBe(303);
      const authorize = new URL(confirmed.headers.location as string);
      expect(authorize.origin + authorize.pathname).toBe("https://acme.zendesk.com/oauth/authorizations/new");
    } finally {
      await confirming.close();
    }
  });

  it("a manifest whose OAuth URLs name no tenant takes no setting at start (Mailchimp learns its data center after OAuth)", async () => {
    const mailchimp = buildApp({
      registry: shipped,
      publicUrl: PUBLIC_URL,
      stateKey: randomKey(),
      oauthApps: { mailchimp: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET } },
      allowedReturnTo: [RETURN_TO],
      dispatcher: standIn.dispatcher,
      logger: false,
    });
    try {
      const response = await mailchimp.inject({
        method: "GET",
        url: `/connect/mailchimp/start?client_key=${client.publicKey}&return_to=${encodeURIComponent(RETURN_TO)}&dc=evil`,
      });
      expect(response.statusCode).toBe(302);
      expect(new URL(response.headers.location as string).origin).toBe("https://login.mailchimp.com");
    } finally {
      await mailchimp.close();
    }
  });
});

// POST /connect/:id/revoke over the shipped manifests, against stand-ins that
// answer as each provider's revocation documentation says (see the fixture).
import { loadRegistry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testApp } from "../__fixtures__/test-app.js";
import { proofFor } from "../__fixtures__/token-proofs.js";
import { startRevocationStandIn, type RevocationStandIn } from "../__fixtures__/revocation-stand-in.js";
import { CLIENT_ID, CLIENT_SECRET } from "../__fixtures__/test-registry.js";
import type { RevocationOutcome } from "./provider-revocation.js";

const shipped = loadRegistry(manifestFiles);
const app = { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET };
const ids = ["google-calendar", "salesforce", "github", "slack", "stripe", "google-drive", "box", "zoom", "gitlab", "asana", "microsoft-teams", "airtable"];
let standIn: RevocationStandIn;
let broker: FastifyInstance;
let logs: string[];
let stateKey: string;
const outcomes: { integration: string; outcome: RevocationOutcome }[] = [];

beforeAll(async () => {
  standIn = await startRevocationStandIn(app);
  ({
    app: broker,
    logs,
    config: { stateKey },
  } = testApp({
    registry: shipped,
    oauthApps: Object.fromEntries(ids.map((id) => [id, app])),
    dispatcher: standIn.dispatcher,
    revokeLimits: { perAddress: 1000 },
    onRevocation: (event) => outcomes.push(event),
  }));
});

afterAll(async () => {
  await broker?.close();
  await standIn?.close();
});

function revoke(id: string, body: unknown, remoteAddress = "203.0.113.9") {
  return broker.inject({
    method: "POST",
    url: `/connect/${id}/revoke`,
    remoteAddress,
    headers: { "content-type": "application/json" },
    payload: JSON.stringify(body),
  });
}
const last = () => standIn.seen.at(-1)!;
const basic = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64")}`;

describe("POST /connect/:id/revoke", () => {
  it("GitHub: DELETE /applications/{client_id}/token, Basic client auth, JSON { access_token }", async () => {
    standIn.live.add("gho_live-github-token");
    const answer = await revoke("github", { token: "gho_live-github-token" });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ revoked: true });
    expect(last()).toMatchObject({ host: "api.github.com", method: "DELETE", path: `/applications/${CLIENT_ID}/token`, authorization: basic });
    expect(JSON.parse(last().body)).toEqual({ access_token: "gho_live-github-token" });
    // GitHub's 422 for a token it does not know is the member's refusal, 400.
    const again = await revoke("github", { token: "gho_live-github-token" });
    expect(again.statusCode).toBe(400);
    expect(again.json().error.code).toBe("revocation_refused");
  });

  it("Slack: auth.revoke with the token as the bearer; 200 ok:false is a refusal", async () => {
    standIn.live.add("xoxp-live-slack");
    expect((await revoke("slack", { token: "xoxp-live-slack" })).json()).toEqual({ revoked: true });
    expect(last()).toMatchObject({ host: "slack.com", method: "POST", path: "/api/auth.revoke", authorization: "Bearer xoxp-live-slack" });
    const again = await revoke("slack", { token: "xoxp-live-slack" });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toMatchObject({ code: "revocation_refused" });
    expect(again.json().error.message).toContain("invalid_auth");
  });

  it("Stripe Connect: /oauth/deauthorize with client_id and stripe_user_id, the platform key as the bearer", async () => {
    standIn.live.add("acct_1Live");
    // With the bundle's revoke_proof: since the third review Stripe disconnects nothing on a bare id (connect-revoke.attack.test.ts).
    const proven = { token: "sk_live-connected", stripe_user_id: "acct_1Live", revoke_proof: proofFor(stateKey, "stripe", "sk_live-connected", "acct_1Live") };
    expect((await revoke("stripe", proven)).json()).toEqual({ revoked: true });
    expect(last()).toMatchObject({ host: "connect.stripe.com", path: "/oauth/deauthorize", authorization: `Bearer ${CLIENT_SECRET}` });
    expect(Object.fromEntries(new URLSearchParams(last().body))).toEqual({ client_id: CLIENT_ID, stripe_user_id: "acct_1Live" });
    expect((await revoke("stripe", proven)).json().error.code).toBe("revocation_refused");
    expect((await revoke("stripe", { token: "sk_live-connected" })).json().error.code).toBe("invalid_body");
  });

  it("RFC 7009: Google (form token), Box and GitLab and Asana (client in the body), Zoom (HTTP Basic)", async () => {
    for (const [id, host, auth] of [
      ["google-drive", "oauth2.googleapis.com", "body"],
      ["google-calendar", "oauth2.googleapis.com", "body"],
      ["box", "api.box.com", "body"],
      ["gitlab", "gitlab.com", "body"],
      ["asana", "app.asana.com", "body"],
      ["zoom", "zoom.us", "basic"],
    ] as const) {
      standIn.live.add(`${id}-live-token`);
      const answer = await revoke(id, { token: `${id}-live-token` });
      expect(answer.json(), id).toEqual({ revoked: true });
      const form = Object.fromEntries(new URLSearchParams(last().body));
      expect(last().host).toBe(host);
      expect(last().contentType).toBe("application/x-www-form-urlencoded");
      expect(form["token"]).toBe(`${id}-live-token`);
      if (auth === "basic") expect(last().authorization).toBe(basic);
      else expect(form).toMatchObject({ client_id: CLIENT_ID, client_secret: CLIENT_SECRET });
    }
    const refused = await revoke("google-drive", { token: "ya29.unknown" });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.code).toBe("revocation_refused");
  });

  it("a tenant revocation URL (Salesforce My Domain) is filled from the connection, and refused naming the setting without it", async () => {
    standIn.live.add("00Dsalesforce-live");
    const answer = await revoke("salesforce", { token: "00Dsalesforce-live", connection: { instance: "acme" } });
    expect(answer.json()).toEqual({ revoked: true });
    expect(last()).toMatchObject({ host: "acme.my.salesforce.com", path: "/services/oauth2/revoke" });
    const missing = await revoke("salesforce", { token: "00Dsalesforce-live" });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toContain("instance");
    const invalid = await revoke("salesforce", { token: "x", connection: { instance: "evil.example/x" } });
    expect(invalid.json().error.code).toBe("invalid_body");
    expect(invalid.json().error.message).not.toContain("evil.example");
  });

  it("an OAuth integration without a revocation answers 409 revocation_unavailable with where to revoke by hand", async () => {
    const teams = await revoke("microsoft-teams", { token: "eyJ0-teams" });
    expect(teams.statusCode).toBe(409);
    expect(teams.json().error).toMatchObject({ code: "revocation_unavailable", revoke_help: shipped.get("microsoft-teams")?.auth.oauth?.revoke_help });
    const airtable = await revoke("airtable", { token: "airtable-token" });
    expect(airtable.json().error).toMatchObject({ code: "revocation_unavailable", revoke_help: shipped.get("airtable")?.auth.pat_help });
  });

  it("a provider failing is 502 revocation_failed, and the outcome is handed to the hook", async () => {
    standIn.setDown(true);
    try {
      const answer = await revoke("github", { token: "gho_while-down" });
      expect(answer.statusCode).toBe(502);
      expect(answer.json().error.code).toBe("revocation_failed");
    } finally {
      standIn.setDown(false);
    }
    expect(outcomes.at(-1)).toEqual({ integration: "github", outcome: { kind: "failed", status: 503, providerCode: "http_503" } });
  });

  it("refuses bad bodies, over-size bodies and PAT integrations; bounded per address; the token never reaches a log", async () => {
    expect((await revoke("github", { token: "" })).json().error.code).toBe("invalid_body");
    expect((await revoke("github", { token: "x", extra: true })).json().error.code).toBe("invalid_body");
    expect((await revoke("github", { token: "x".repeat(40 * 1024) })).statusCode).toBe(413);
    expect((await revoke("nope", { token: "x" })).statusCode).toBe(404);
    const { app: limited } = testApp({
      registry: shipped,
      oauthApps: { github: app },
      dispatcher: standIn.dispatcher,
      revokeLimits: { perAddress: 2 },
      logger: false,
    });
    try {
      const send = () =>
        limited.inject({
          method: "POST",
          url: "/connect/github/revoke",
          headers: { "content-type": "application/json" },
          payload: JSON.stringify({ token: "gho_x" }),
        });
      await send();
      await send();
      const third = await send();
      expect(third.statusCode).toBe(429);
      expect(third.headers["retry-after"]).toBeDefined();
    } finally {
      await limited.close();
    }
    const all = logs.join("\n");
    expect(all).toContain("revocation at the provider");
    for (const secret of ["gho_live-github-token", "xoxp-live-slack", "sk_live-connected", "google-drive-live-token", "gho_while-down", CLIENT_SECRET])
      expect(all).not.toContain(secret);
  });
});

// Issue 21, the sidecar's side: the grant's account in the palette and the audit
// line, an expired credential refused before anything is sent, and the grant's
// connection (tenant settings) placing a tenant integration's host.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { confirmationFor, grantFor, MEMBER_TOKEN } from "../__fixtures__/grant-kit.js";
import { authorized, mockProvider, testApp, type MockProvider, type TestApp } from "../__fixtures__/test-app.js";

const ISSUE_ARGS = { owner: "octocat", repo: "hello-world", title: "Crash on start" };
const WORK_ACCOUNT = { id: "583231", name: "octocat-at-work" };

let provider: MockProvider;
let harness: TestApp;

beforeEach(async () => {
  provider = mockProvider();
  harness = await testApp({ dispatcher: provider.dispatcher });
});

afterEach(async () => {
  await harness.app.close();
  await provider.agent.close();
});

async function post(url: string, payload: Record<string, unknown>) {
  const response = await harness.app.inject({ method: "POST", url, headers: authorized, payload });
  return response.json() as Record<string, unknown> & { error?: { code: string; next_action: string; message: string } };
}

function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}

describe("a grant whose credential expired (cred.expires_at)", () => {
  it("answers a read unauthorized with a next action to reconnect, and sends nothing", async () => {
    const body = await post("/v1/run", { grant: grantFor({ expiresAt: unixNow() - 1 }), op: "repos.list" });
    expect(body).toMatchObject({ status: "error", integration: "github", op: "repos.list", error: { code: "unauthorized" } });
    expect(body.error?.next_action).toMatch(/reconnect github/i);
    expect(JSON.stringify(body)).not.toContain(MEMBER_TOKEN);
    expect(provider.sent).toHaveLength(0);
  });

  it("answers a confirmed write unauthorized before the chip and after it, and sends nothing", async () => {
    const grant = grantFor({ access: "write", expiresAt: unixNow() - 1 });
    expect((await post("/v1/run", { grant, op: "issues.create", args: ISSUE_ARGS })).error?.code).toBe("unauthorized");
    const confirmed = await post("/v1/run", {
      grant,
      op: "issues.create",
      args: ISSUE_ARGS,
      confirmation: confirmationFor(grant, "issues.create", ISSUE_ARGS),
    });
    expect(confirmed.error?.code).toBe("unauthorized");
    expect(provider.sent).toHaveLength(0);
    const lines = await harness.auditRecords();
    expect(lines.map((line) => line.code)).toEqual(["unauthorized", "unauthorized"]);
  });

  it("still runs a credential that expires later", async () => {
    provider.agent
      .get("https://api.github.com")
      .intercept({ path: "/user/repos?per_page=30", method: "GET" })
      .reply(200, [], { headers: { "content-type": "application/json" } });
    const body = await post("/v1/run", { grant: grantFor({ expiresAt: unixNow() + 3600 }), op: "repos.list" });
    expect(body.status).toBe("ok");
    expect(provider.sent).toHaveLength(1);
  });
});

describe("the grant's account", () => {
  it("is named in the palette", async () => {
    const body = await post("/v1/ops", { grant: grantFor({ account: WORK_ACCOUNT }) });
    expect(body).toMatchObject({ status: "ok", integration: "github", account: WORK_ACCOUNT });
    expect("account" in (await post("/v1/ops", { grant: grantFor() }))).toBe(false);
  });

  it("is written in the audit line, null when the grant names none", async () => {
    provider.agent
      .get("https://api.github.com")
      .intercept({ path: "/user/repos?per_page=30", method: "GET" })
      .reply(200, [], { headers: { "content-type": "application/json" } })
      .times(2);
    await post("/v1/run", { grant: grantFor({ account: WORK_ACCOUNT }), op: "repos.list" });
    await post("/v1/run", { grant: grantFor(), op: "repos.list" });
    const lines = await harness.auditRecords();
    expect(lines.map((line) => line.account)).toEqual([WORK_ACCOUNT, null]);
  });
});

describe("the grant's connection", () => {
  it("sends a tenant integration's run to the connection's host", async () => {
    provider.agent
      .get("https://acme.zendesk.com")
      .intercept({ path: "/api/v2/users/me", method: "GET" })
      .reply(
        200,
        { user: { id: 35436, name: "Johnny Agent", email: "johnny@acme.example", role: "agent" } },
        { headers: { "content-type": "application/json" } },
      );
    const grant = grantFor({ integration: "zendesk", connection: { subdomain: "acme" } });
    const body = await post("/v1/run", { grant, op: "users.me" });
    expect(body).toMatchObject({ status: "ok", integration: "zendesk", data: { id: 35436, name: "Johnny Agent" } });
    expect(provider.sent.map((request) => request.path)).toEqual(["/api/v2/users/me"]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateBotKeys, signRevocation } from "@eleven-integrations/grants";
import { grantFor, member, MEMBER_TOKEN } from "../__fixtures__/grant-kit.js";
import { authorized, testApp, type TestApp } from "../__fixtures__/test-app.js";
import type { ReadinessHit as SearchResultEntry, SearchAnswer } from "@eleven-integrations/sidecar-protocol";

let harness: TestApp;
beforeAll(async () => {
  harness = await testApp();
});
afterAll(async () => {
  await harness.app.close();
});

async function search(payload: Record<string, unknown>): Promise<SearchAnswer> {
  const response = await harness.app.inject({ method: "POST", url: "/v1/search", headers: authorized, payload });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.body).not.toContain(MEMBER_TOKEN);
  return response.json() as SearchAnswer;
}

function result(answer: SearchAnswer, integration: string, op: string): SearchResultEntry {
  const found = answer.results.find((entry) => entry.integration === integration && entry.op === op);
  if (found === undefined) throw new Error(`${integration} ${op} not in ${answer.results.map((entry) => `${entry.integration} ${entry.op}`).join(", ")}`);
  return found;
}

const anHourAgo = () => Math.floor(Date.now() / 1000) - 3600;

describe("POST /v1/search: ranked ops with readiness", () => {
  it("ready: a valid grant runs the op; the next action says how", async () => {
    const answer = await search({ q: "list github issues", grants: [grantFor({ access: "read" })] });
    expect(answer.results[0]).toMatchObject({ integration: "github", op: "issues.list", readiness: "ready", grant: 0, access: "read" });
    expect(answer.results[0]?.next_action).toBe("Run it: POST /v1/run with grants[0] and op issues.list.");
    expect(answer.grants).toEqual([{ index: 0, status: "ok", integration: "github", access: "read", exp: expect.any(Number) }]);
    const write = await search({ q: "open github issue", grants: [grantFor({ access: "write" })] });
    expect(result(write, "github", "issues.create")).toMatchObject({ readiness: "ready", grant: 0 });
    expect(result(write, "github", "issues.create").next_action).toContain("confirm line");
  });

  it("needs_write_grant: the grant to the integration only reads", async () => {
    const answer = await search({ q: "open github issue", grants: [grantFor({ access: "read" })] });
    const create = result(answer, "github", "issues.create");
    expect(create).toMatchObject({ readiness: "needs_write_grant", grant: 0 });
    expect(create.next_action).toContain("Ask the member for a write grant to GitHub");
  });

  it("grant_expired: the grant that would run it has expired", async () => {
    const answer = await search({ q: "close github issue", grants: [grantFor({ access: "write", now: anHourAgo(), ttlSeconds: 600 })] });
    const close = result(answer, "github", "issues.close");
    expect(close).toMatchObject({ readiness: "grant_expired", grant: 0, destructive: true });
    expect(close.next_action).toMatch(/^Ask the member for a fresh GitHub grant: the one given expired at \d{4}-\d\d-\d\dT/);
    expect(answer.grants[0]).toMatchObject({ status: "error", integration: "github", code: "grant_expired" });
  });

  it("manifest_changed: the grant was given for another version of the manifest", async () => {
    const answer = await search({ q: "list github issues", grants: [grantFor({ access: "read", manifestHash: "f".repeat(64) })] });
    expect(answer.results[0]).toMatchObject({ op: "issues.list", readiness: "manifest_changed", grant: 0 });
    expect(answer.results[0]?.next_action).toContain("the GitHub integration changed since it was granted");
    expect(answer.grants[0]).toMatchObject({ status: "error", integration: "github", code: "manifest_changed" });
  });

  it("needs_grant: no grant covers the op; the next action says how the member can connect", async () => {
    const none = await search({ q: "post slack message", grants: [] });
    expect(none.results[0]).toMatchObject({ integration: "slack", op: "chat.post_message", readiness: "needs_grant" });
    expect(none.results[0]?.next_action).toBe(
      "Ask the member to grant this bot write access to Slack after connecting it in the messenger or with a personal token (https://api.slack.com/apps).",
    );
    expect(none.results[0]).not.toHaveProperty("grant");
    const stripe = await search({ q: "stripe balance", grants: [grantFor({ access: "write" })] });
    expect(result(stripe, "stripe", "balance.get")).toMatchObject({ readiness: "needs_grant" });
    expect(result(stripe, "stripe", "balance.get").next_action).toContain("with a personal token (");
    const listed = await search({ q: "read one github issue", grants: [grantFor({ access: "read", ops: ["issues.list"] })] });
    expect(result(listed, "github", "issues.get")).toMatchObject({ readiness: "needs_grant" });
    expect(result(listed, "github", "issues.get").next_action).toContain("a GitHub grant that includes issues.get");
  });

  it("the most specific answer wins across several grants, and a grant that does not open is reported, not fatal", async () => {
    const foreign = grantFor({ access: "write", botPublicKey: generateBotKeys().publicKey });
    const answer = await search({
      q: "github issue",
      limit: 50,
      grants: [foreign, grantFor({ access: "read" }), grantFor({ access: "write", now: anHourAgo(), ttlSeconds: 600 })],
    });
    expect(result(answer, "github", "issues.list")).toMatchObject({ readiness: "ready", grant: 1 });
    expect(result(answer, "github", "issues.create")).toMatchObject({ readiness: "grant_expired", grant: 2 });
    expect(answer.grants.map((grant) => grant.status)).toEqual(["error", "ok", "error"]);
    expect(answer.grants[0]).toMatchObject({ integration: null, code: "grant_invalid" });
  });

  it("a revoked grant makes nothing ready: it is reported grant_invalid", async () => {
    const grant = grantFor({ access: "read" });
    expect((await search({ q: "list github issues", grants: [grant] })).results[0]?.readiness).toBe("ready");
    const revoked = await harness.app.inject({
      method: "POST",
      url: "/v1/revoke",
      headers: authorized,
      payload: { revocation: signRevocation({ member, grant }) },
    });
    expect(revoked.json()).toMatchObject({ status: "ok" });
    const answer = await search({ q: "list github issues", grants: [grant] });
    expect(answer.results[0]).toMatchObject({ op: "issues.list", readiness: "needs_grant" });
    expect(answer.grants[0]).toEqual({ index: 0, status: "error", integration: "github", code: "grant_invalid", message: "the member revoked this grant" });
  });

  it("ranks with the shared index and honours category, access and limit", async () => {
    const answer = await search({ q: "", grants: [], access: "write", category: "development", limit: 3 });
    expect(answer.results).toHaveLength(3);
    expect(answer.results.every((entry) => entry.access === "write" && entry.category === "development")).toBe(true);
    expect(answer.query).toEqual({ q: "", category: "development", access: "write" });
  });

  it("refuses a malformed body with invalid_body, and a caller without the token with 401", async () => {
    for (const payload of [
      { q: "x" },
      { q: "x", grants: "eg1.x" },
      { q: "x", grants: [], extra: 1 },
      { q: "x".repeat(201), grants: [] },
      { q: "x", grants: Array(33).fill("eg1.x") },
    ]) {
      const response = await harness.app.inject({ method: "POST", url: "/v1/search", headers: authorized, payload });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe("invalid_body");
    }
    const anonymous = await harness.app.inject({ method: "POST", url: "/v1/search", payload: { q: "x", grants: [] } });
    expect(anonymous.statusCode).toBe(401);
  });
});

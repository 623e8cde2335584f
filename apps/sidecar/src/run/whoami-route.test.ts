// POST /v1/whoami (issue 21): runs the integration's identity op now. The provider
// answers are GitHub's documented "Get the authenticated user" example
// (https://docs.github.com/en/rest/users/users#get-the-authenticated-user) and its
// 401 "Bad credentials".
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { grantFor, manifestHash, MEMBER_TOKEN } from "../__fixtures__/grant-kit.js";
import { authorized, mockProvider, testApp, type MockProvider, type TestApp } from "../__fixtures__/test-app.js";

const GITHUB = "https://api.github.com";
const OCTOCAT = { login: "octocat", id: 1, node_id: "MDQ6VXNlcjE=", name: "monalisa octocat", html_url: "https://github.com/octocat", type: "User" };

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

async function whoami(payload: Record<string, unknown>) {
  const response = await harness.app.inject({ method: "POST", url: "/v1/whoami", headers: authorized, payload });
  return {
    statusCode: response.statusCode,
    body: response.json() as Record<string, unknown> & { error?: { code: string; message: string; next_action: string } },
  };
}

describe("POST /v1/whoami", () => {
  it("runs the identity op with the grant's credential and answers the account (a numeric id in decimal)", async () => {
    provider.agent
      .get(GITHUB)
      .intercept({ path: "/user", method: "GET" })
      .reply(200, OCTOCAT, { headers: { "content-type": "application/json" } });
    const { statusCode, body } = await whoami({ grant: grantFor() });
    expect(statusCode).toBe(200);
    expect(body).toEqual({ status: "ok", integration: "github", account: { id: "1", name: "octocat" } });
    expect(provider.sent).toHaveLength(1);
    expect(provider.sent[0]?.headers["authorization"]).toBe(`Bearer ${MEMBER_TOKEN}`);
    const [line] = await harness.auditRecords();
    expect(line).toMatchObject({ op: "users.me", access: "read", integration: "github", status: "ok", http_status: 200 });
  });

  it("answers the provider's refusal as the op's error envelope", async () => {
    provider.agent
      .get(GITHUB)
      .intercept({ path: "/user", method: "GET" })
      .reply(401, { message: "Bad credentials", documentation_url: "https://docs.github.com/rest" }, { headers: { "content-type": "application/json" } });
    const { body } = await whoami({ grant: grantFor() });
    expect(body).toMatchObject({ status: "error", integration: "github", op: "users.me", error: { code: "unauthorized", http_status: 401 } });
  });

  it("answers an answer that names no account as bad_response", async () => {
    provider.agent
      .get(GITHUB)
      .intercept({ path: "/user", method: "GET" })
      .reply(200, { id: 1 }, { headers: { "content-type": "application/json" } });
    const { body } = await whoami({ grant: grantFor() });
    expect(body).toMatchObject({ status: "error", integration: "github", op: "users.me", error: { code: "bad_response" } });
    expect(body.error?.message).toMatch(/login/);
  });

  it("refuses an expired credential, a grant that does not open, and an integration without identity, sending nothing", async () => {
    expect((await whoami({ grant: grantFor({ expiresAt: Math.floor(Date.now() / 1000) - 5 }) })).body).toMatchObject({
      status: "error",
      op: "users.me",
      error: { code: "unauthorized" },
    });
    expect((await whoami({ grant: "eg1.garbage" })).body).toMatchObject({ status: "error", integration: null, error: { code: "grant_invalid" } });
    const docs = await whoami({ grant: grantFor({ integration: "google-docs", manifestHash: manifestHash("google-docs") }) });
    expect(docs.body).toMatchObject({ status: "error", integration: "google-docs", error: { code: "unknown_op" } });
    expect(provider.sent).toHaveLength(0);
  });

  it("refuses a malformed body with 400 invalid_body", async () => {
    const { statusCode, body } = await whoami({ grant: grantFor(), op: "users.me" });
    expect(statusCode).toBe(400);
    expect(body.error?.code).toBe("invalid_body");
  });
});

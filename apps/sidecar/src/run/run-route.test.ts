import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bot, confirmationFor, grantFor, member, MEMBER_TOKEN, opened } from "../__fixtures__/grant-kit.js";
import { authorized, mockProvider, testApp, type MockProvider, type TestApp } from "../__fixtures__/test-app.js";
import { argsDigest, generateBotKeys, generateMemberKeys, issueGrant } from "@eleven-integrations/grants";

const GITHUB = "https://api.github.com";
const ISSUE_ARGS = { owner: "octocat", repo: "hello-world", title: "Crash on start" };

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

async function run(body: Record<string, unknown>) {
  const response = await harness.app.inject({ method: "POST", url: "/v1/run", headers: authorized, payload: body });
  return {
    statusCode: response.statusCode,
    body: response.json() as Record<string, unknown> & { error?: { code: string; next_action: string; message: string } },
  };
}

function replyRepos() {
  provider.agent
    .get(GITHUB)
    .intercept({ path: "/user/repos?per_page=30", method: "GET" })
    .reply(200, [{ full_name: "octocat/hello-world", private: false, node_id: "x" }], { headers: { "content-type": "application/json" } });
}

function replyIssueCreated() {
  provider.agent
    .get(GITHUB)
    .intercept({ path: "/repos/octocat/hello-world/issues", method: "POST" })
    .reply(
      201,
      { number: 7, title: "Crash on start", state: "open", html_url: "https://github.com/octocat/hello-world/issues/7" },
      { headers: { "content-type": "application/json" } },
    );
}

describe("POST /v1/run: a read", () => {
  it("runs with the member's token and answers the executor's envelope with HTTP 200", async () => {
    replyRepos();
    const { statusCode, body } = await run({ grant: grantFor(), op: "repos.list" });
    expect(statusCode).toBe(200);
    expect(body).toEqual({
      status: "ok",
      integration: "github",
      op: "repos.list",
      http_status: 200,
      data: [{ full_name: "octocat/hello-world", private: false }],
    });
    expect(provider.sent).toHaveLength(1);
    expect(provider.sent[0]?.headers["authorization"]).toBe(`Bearer ${MEMBER_TOKEN}`);
  });

  it("passes an upstream failure through as the executor's envelope", async () => {
    provider.agent.get(GITHUB).intercept({ path: "/user/repos?per_page=30", method: "GET" }).reply(401, { message: "Bad credentials" });
    const { statusCode, body } = await run({ grant: grantFor(), op: "repos.list" });
    expect(statusCode).toBe(200);
    expect(body.status).toBe("error");
    expect(body.error?.code).toBe("unauthorized");
    expect(body.error?.next_action).toMatch(/Reconnect GitHub/);
  });

  it("ignores a confirmation sent with a read and runs it", async () => {
    replyRepos();
    const grant = grantFor();
    const { body } = await run({ grant, op: "repos.list", confirmation: "ec1.unused" });
    expect(body.status).toBe("ok");
  });
});

describe("POST /v1/run: the grant", () => {
  it("answers grant_expired for an expired grant, sending nothing", async () => {
    const now = Math.floor(Date.now() / 1000);
    const { statusCode, body } = await run({ grant: grantFor({ now: now - 3600, ttlSeconds: 60 }), op: "repos.list" });
    expect(statusCode).toBe(200);
    expect(body).toMatchObject({ status: "error", integration: null, op: "repos.list", error: { code: "grant_expired" } });
    expect(body.error?.next_action).toMatch(/fresh grant/);
    expect(provider.sent).toHaveLength(0);
  });

  it.each([
    ["garbage", () => "not a grant"],
    ["a grant sealed to another bot", () => grantFor({ botPublicKey: generateBotKeys().publicKey })],
    ["a grant from an untrusted member", () => grantFor({ issuer: generateMemberKeys() })],
    [
      "an altered grant",
      () => {
        const grant = grantFor();
        const last = grant.at(-2) === "A" ? "B" : "A";
        return `${grant.slice(0, -2)}${last}${grant.at(-1) ?? ""}`;
      },
    ],
    ["a grant issued in the future", () => grantFor({ now: Math.floor(Date.now() / 1000) + 3600 })],
  ])("answers grant_invalid for %s", async (_name, make) => {
    const { statusCode, body } = await run({ grant: make(), op: "repos.list" });
    expect(statusCode).toBe(200);
    expect(body).toMatchObject({ status: "error", integration: null, error: { code: "grant_invalid" } });
    expect(body.error?.next_action.length).toBeGreaterThan(10);
    expect(provider.sent).toHaveLength(0);
  });

  it("answers grant_invalid, asking for a fresh grant, when the manifest changed since the member granted it", async () => {
    const { body } = await run({ grant: grantFor({ manifestHash: "0".repeat(64) }), op: "repos.list" });
    expect(body).toMatchObject({ status: "error", integration: "github", error: { code: "grant_invalid" } });
    expect(body.error?.next_action).toMatch(/fresh grant.*changed/);
    expect(provider.sent).toHaveLength(0);
  });

  it("answers grant_invalid for an integration this sidecar does not run", async () => {
    const grant = issueGrant({
      member,
      botPublicKey: bot.publicKey,
      integration: "jira",
      manifestHash: "a".repeat(64),
      access: "read",
      credential: { kind: "pat", token: MEMBER_TOKEN },
      ttlSeconds: 60,
    });
    const { body } = await run({ grant, op: "issues.list" });
    expect(body).toMatchObject({ status: "error", integration: "jira", error: { code: "grant_invalid" } });
    expect(provider.sent).toHaveLength(0);
  });
});

describe("POST /v1/run: access", () => {
  it("refuses a write under a read grant with access_denied, sending nothing", async () => {
    const { statusCode, body } = await run({ grant: grantFor({ access: "read" }), op: "issues.create", args: ISSUE_ARGS });
    expect(statusCode).toBe(200);
    expect(body).toMatchObject({ status: "error", integration: "github", op: "issues.create", error: { code: "access_denied" } });
    expect(body.error?.next_action).toMatch(/write grant/);
    expect(provider.sent).toHaveLength(0);
  });

  it("refuses an op outside the grant's allow-list, even a read", async () => {
    const { body } = await run({ grant: grantFor({ access: "write", ops: ["issues.list"] }), op: "repos.list" });
    expect(body).toMatchObject({ status: "error", error: { code: "access_denied" } });
    expect(body.error?.next_action).toMatch(/includes repos\.list/);
    expect(provider.sent).toHaveLength(0);
  });

  it("refuses another integration's op", async () => {
    const { body } = await run({ grant: grantFor({ access: "write" }), op: "tasks.create", args: { content: "x" } });
    expect(body).toMatchObject({ status: "error", integration: "github", op: "tasks.create", error: { code: "access_denied" } });
    expect(provider.sent).toHaveLength(0);
  });

  it("runs an op on the allow-list", async () => {
    replyRepos();
    const { body } = await run({ grant: grantFor({ ops: ["repos.list"] }), op: "repos.list" });
    expect(body.status).toBe("ok");
    expect(provider.sent).toHaveLength(1);
  });
});

describe("POST /v1/run: args", () => {
  it("answers invalid_args for a read, sending nothing", async () => {
    const { statusCode, body } = await run({ grant: grantFor(), op: "repos.list", args: { sort: "sideways" } });
    expect(statusCode).toBe(200);
    expect(body).toMatchObject({ status: "error", integration: "github", op: "repos.list", error: { code: "invalid_args" } });
    expect(body.error?.message).toMatch(/sort/);
    expect(provider.sent).toHaveLength(0);
  });

  it("checks args before asking for a confirmation", async () => {
    const { body } = await run({ grant: grantFor({ access: "write" }), op: "issues.create", args: { owner: "octocat" } });
    expect(body).toMatchObject({ status: "error", error: { code: "invalid_args" } });
  });
});

describe("POST /v1/run: a write", () => {
  it("answers confirmation_required with the rendered line, the args digest and the grant id, sending nothing", async () => {
    const grant = grantFor({ access: "write" });
    const { statusCode, body } = await run({ grant, op: "issues.create", args: ISSUE_ARGS });
    expect(statusCode).toBe(200);
    expect(body).toEqual({
      status: "confirmation_required",
      integration: "github",
      op: "issues.create",
      confirm: "Open issue “Crash on start” in octocat/hello-world, visible to everyone who can read that repository and notifying its watchers",
      details: [],
      args_digest: argsDigest(ISSUE_ARGS),
      gid: opened(grant).gid,
    });
    expect(provider.sent).toHaveLength(0);
  });

  it("neutralises controls in the rendered line", async () => {
    const args = { ...ISSUE_ARGS, title: "Fix\u202Eevil\nline" };
    const { body } = await run({ grant: grantFor({ access: "write" }), op: "issues.create", args });
    expect(body.confirm).toBe(
      "Open issue “Fix\uFFFDevil\uFFFDline” in octocat/hello-world, visible to everyone who can read that repository and notifying its watchers",
    );
  });

  it("runs once with a valid confirmation, and answers the same call again with its stored outcome (replayed: true), sending nothing", async () => {
    replyIssueCreated();
    const grant = grantFor({ access: "write" });
    const confirmation = confirmationFor(grant, "issues.create", ISSUE_ARGS);
    const first = await run({ grant, op: "issues.create", args: ISSUE_ARGS, confirmation });
    expect(first.body).toMatchObject({ status: "ok", http_status: 201, data: { number: 7 } });
    expect(provider.sent).toHaveLength(1);
    expect(provider.sent[0]?.method).toBe("POST");

    const replay = await run({ grant, op: "issues.create", args: ISSUE_ARGS, confirmation });
    expect(replay.statusCode).toBe(200);
    expect(replay.body).toEqual({ ...first.body, replayed: true });
    expect(provider.sent).toHaveLength(1);
  });

  it("runs at most one write when the same confirmation is submitted concurrently", async () => {
    replyIssueCreated();
    replyIssueCreated();
    const grant = grantFor({ access: "write" });
    const confirmation = confirmationFor(grant, "issues.create", ISSUE_ARGS);
    const answers = await Promise.all([1, 2, 3].map(() => run({ grant, op: "issues.create", args: ISSUE_ARGS, confirmation })));
    // One ran; each other answers "in progress" (while it ran) or its stored outcome (after).
    expect(answers.filter((answer) => answer.body.status === "ok" && answer.body.replayed === undefined)).toHaveLength(1);
    for (const answer of answers.filter((answer) => answer.body.status !== "ok" || answer.body.replayed !== undefined)) {
      if (answer.body.status === "ok") expect(answer.body.replayed).toBe(true);
      else expect(answer.body.error?.next_action).toMatch(/in progress/);
    }
    expect(provider.sent).toHaveLength(1);
  });

  it.each([
    [
      "other args",
      () => {
        const grant = grantFor({ access: "write" });
        return { grant, confirmation: confirmationFor(grant, "issues.create", { ...ISSUE_ARGS, title: "Something else" }) };
      },
    ],
    [
      "another line",
      () => {
        const grant = grantFor({ access: "write" });
        return { grant, confirmation: confirmationFor(grant, "issues.create", ISSUE_ARGS, "Open an issue") };
      },
    ],
    [
      "another grant",
      () => {
        const other = grantFor({ access: "write" });
        return { grant: grantFor({ access: "write" }), confirmation: confirmationFor(other, "issues.create", ISSUE_ARGS) };
      },
    ],
    ["garbage", () => ({ grant: grantFor({ access: "write" }), confirmation: "ec1.AAAA" })],
  ])("answers confirmation_invalid, not a second confirmation_required, for a confirmation of %s", async (_name, make) => {
    const { grant, confirmation } = make();
    const { body } = await run({ grant, op: "issues.create", args: ISSUE_ARGS, confirmation });
    expect(body).toMatchObject({ status: "error", integration: "github", error: { code: "confirmation_invalid" } });
    expect(body.error?.next_action.length).toBeGreaterThan(10);
    expect(provider.sent).toHaveLength(0);
  });

  it("refuses a confirmation for another op of the same grant", async () => {
    const grant = grantFor({ access: "write" });
    const closeArgs = { owner: "octocat", repo: "hello-world", issue_number: "7", reason: "completed" };
    const confirmation = confirmationFor(grant, "issues.close", closeArgs);
    const { body } = await run({ grant, op: "issues.comment", args: { owner: "octocat", repo: "hello-world", issue_number: "7", body: "hi" }, confirmation });
    expect(body).toMatchObject({ status: "error", error: { code: "confirmation_invalid" } });
    expect(provider.sent).toHaveLength(0);
  });
});

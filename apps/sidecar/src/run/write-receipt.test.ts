import { argsDigest, generateBotKeys, receiptKeysFor, resultDigest, verifyReceipt } from "@eleven-integrations/grants";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bot, confirmationFor, grantFor, member, opened, registry } from "../__fixtures__/grant-kit.js";
import { authorized, mockProvider, testApp, type MockProvider, type TestApp } from "../__fixtures__/test-app.js";

const GITHUB = "https://api.github.com";
const ISSUE_ARGS = { owner: "octocat", repo: "hello-world", title: "Crash on start" };
const CREATED = { number: 7, title: "Crash on start", state: "open", html_url: "https://github.com/octocat/hello-world/issues/7" };

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

type Answer = Record<string, unknown> & { receipt?: string; data?: unknown; error?: { code: string; http_status?: number } };

async function run(body: Record<string, unknown>): Promise<Answer> {
  const response = await harness.app.inject({ method: "POST", url: "/v1/run", headers: authorized, payload: body });
  return response.json() as Answer;
}

async function receiptKey(): Promise<string> {
  const response = await harness.app.inject({ method: "GET", url: "/v1/identity", headers: authorized });
  const key = (response.json() as { receipt_key?: string }).receipt_key;
  expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return key as string;
}

function confirmationNonce(confirmation: string): { nonce: string; line_digest: string } {
  const bytes = Buffer.from(confirmation.slice(4), "base64url");
  return JSON.parse(bytes.subarray(64).toString("utf8")) as { nonce: string; line_digest: string };
}

describe("receipts of writes", () => {
  it("signs an ok write: every field of the payload names what ran, and what came back", async () => {
    provider.agent
      .get(GITHUB)
      .intercept({ path: "/repos/octocat/hello-world/issues", method: "POST" })
      .reply(201, CREATED, { headers: { "content-type": "application/json" } });
    const grant = grantFor({ access: "write" });
    const confirmation = confirmationFor(grant, "issues.create", ISSUE_ARGS);
    const before = Math.floor(Date.now() / 1000);
    const answer = await run({ grant, op: "issues.create", args: ISSUE_ARGS, confirmation });
    expect(answer.status).toBe("ok");
    expect(answer.receipt).toMatch(/^ew1\./);
    const payload = verifyReceipt(answer.receipt as string, { key: await receiptKey() });
    const { nonce, line_digest } = confirmationNonce(confirmation);
    expect(payload).toMatchObject({
      v: 1,
      typ: "receipt",
      gid: opened(grant).gid,
      integration: "github",
      op: "issues.create",
      manifest_hash: registry.manifestHash("github"),
      args_digest: argsDigest(ISSUE_ARGS),
      line_digest,
      nonce,
      status: "ok",
      http_status: 201,
      result_digest: resultDigest(answer.data),
      registry_hash: registry.hash,
    });
    expect(payload.at).toBeGreaterThanOrEqual(before);
    expect(payload.audit_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("names who: the member whose tap ran it, the bot, the account and the key that signed it (third review, finding 6)", async () => {
    provider.agent
      .get(GITHUB)
      .intercept({ path: "/repos/octocat/hello-world/issues", method: "POST" })
      .reply(201, CREATED, { headers: { "content-type": "application/json" } });
    const account = { id: "583231", name: "octocat" };
    const grant = grantFor({ access: "write", account });
    const answer = await run({ grant, op: "issues.create", args: ISSUE_ARGS, confirmation: confirmationFor(grant, "issues.create", ISSUE_ARGS) });
    const key = await receiptKey();
    // Another member's write under the same gid and nonce would carry her key as `iss`: it cannot pass for this member's tap.
    expect(verifyReceipt(answer.receipt as string, { key })).toMatchObject({ iss: member.publicKey, aud: bot.publicKey, account, kid: key });
  });

  it("signs a provider's refusal with its http_status and the digest of no data", async () => {
    provider.agent
      .get(GITHUB)
      .intercept({ path: "/repos/octocat/hello-world/issues", method: "POST" })
      .reply(422, { message: "Validation Failed" }, { headers: { "content-type": "application/json" } });
    const grant = grantFor({ access: "write" });
    const answer = await run({ grant, op: "issues.create", args: ISSUE_ARGS, confirmation: confirmationFor(grant, "issues.create", ISSUE_ARGS) });
    expect(answer.status).toBe("error");
    expect(answer.error?.http_status).toBe(422);
    const payload = verifyReceipt(answer.receipt as string, { key: await receiptKey() });
    expect(payload).toMatchObject({ status: "error", http_status: 422, result_digest: resultDigest(null) });
  });

  it("gives no receipt to a read, a confirmation_required or a refusal: nothing was written", async () => {
    provider.agent
      .get(GITHUB)
      .intercept({ path: "/user/repos?per_page=30", method: "GET" })
      .reply(200, [], { headers: { "content-type": "application/json" } });
    const read = await run({ grant: grantFor({ access: "read" }), op: "repos.list" });
    expect(read.status).toBe("ok");
    expect(read).not.toHaveProperty("receipt");
    const grant = grantFor({ access: "write" });
    const asked = await run({ grant, op: "issues.create", args: ISSUE_ARGS });
    expect(asked.status).toBe("confirmation_required");
    expect(asked).not.toHaveProperty("receipt");
    const refused = await run({
      grant,
      op: "issues.create",
      args: ISSUE_ARGS,
      confirmation: confirmationFor(grant, "issues.create", { ...ISSUE_ARGS, title: "other" }),
    });
    expect(refused.error?.code).toBe("confirmation_invalid");
    expect(refused).not.toHaveProperty("receipt");
  });

  it("refuses a tampered receipt (bad_signature) and one checked with another key", async () => {
    provider.agent
      .get(GITHUB)
      .intercept({ path: "/repos/octocat/hello-world/issues", method: "POST" })
      .reply(201, CREATED, { headers: { "content-type": "application/json" } });
    const grant = grantFor({ access: "write" });
    const answer = await run({ grant, op: "issues.create", args: ISSUE_ARGS, confirmation: confirmationFor(grant, "issues.create", ISSUE_ARGS) });
    const key = await receiptKey();
    const bytes = Buffer.from((answer.receipt as string).slice(4), "base64url");
    const text = bytes.subarray(64).toString("utf8").replace('"http_status":201', '"http_status":200');
    const tampered = `ew1.${Buffer.concat([bytes.subarray(0, 64), Buffer.from(text)]).toString("base64url")}`;
    expect(() => verifyReceipt(tampered, { key })).toThrow(expect.objectContaining({ code: "bad_signature" }));
    // Another bot's receipt key (one per bot since the third review: this bot's sidecars all share this one).
    const otherKey = receiptKeysFor(generateBotKeys()).publicKey;
    expect(otherKey).not.toBe(key);
    expect(() => verifyReceipt(answer.receipt as string, { key: otherKey })).toThrow(expect.objectContaining({ code: "bad_signature" }));
  });
});

// The whole story over real sockets: a member grants a bot, the bot reads through its
// sidecar from a loopback TLS stand-in for api.github.com, asks for a write, the member
// confirms the exact line, the write runs once, and every misuse is refused.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { issueGrant, openGrant, signConfirmation, type KeyPair } from "@eleven-integrations/grants";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startSidecar, type RunningSidecar } from "./start/start-server.js";
import { member, MEMBER_TOKEN, registry, temporaryDirectory } from "./__fixtures__/grant-kit.js";
import { httpCall } from "./__fixtures__/http-call.js";
import { captureLogs, leakedSecrets } from "./__fixtures__/log-capture.js";
import { REPOSITORIES, startProviderStandIn, type ProviderStandIn } from "./__fixtures__/provider-stand-in.js";
import { readAudit } from "./__fixtures__/test-app.js";

interface Bot {
  sidecar: RunningSidecar;
  token: string;
  call(path: string, body?: unknown): Promise<{ statusCode: number; body: Record<string, unknown> }>;
}

const logs = captureLogs();
let provider: ProviderStandIn;
let botA: Bot;
let botB: Bot;

async function startBot(): Promise<Bot> {
  const home = await temporaryDirectory("sidecar-e2e-");
  await writeFile(join(home, "trusted-members.json"), JSON.stringify([member.publicKey]));
  const sidecar = await startSidecar({ home, port: 0, dispatcher: provider.dispatcher, logger: { level: "trace", stream: logs.stream } });
  const token = (await readFile(sidecar.callerTokenFile, "utf8")).trim();
  return {
    sidecar,
    token,
    call: async (path, body) => {
      const answer = await httpCall({
        port: sidecar.port,
        method: body === undefined ? "GET" : "POST",
        path,
        headers: { authorization: `Bearer ${token}` },
        body,
      });
      return { statusCode: answer.statusCode, body: answer.json() as Record<string, unknown> };
    },
  };
}

/** What the member's client does: seal a grant to the public key the bot's sidecar published. */
function memberGrants(botPublicKey: string, access: "read" | "write"): string {
  const manifestHash = registry.manifestHash("github");
  if (manifestHash === undefined) throw new Error("no github manifest");
  return issueGrant({ member, botPublicKey, integration: "github", manifestHash, access, credential: { kind: "pat", token: MEMBER_TOKEN }, ttlSeconds: 900 });
}

beforeAll(async () => {
  provider = await startProviderStandIn();
  botA = await startBot();
  botB = await startBot();
});

afterAll(async () => {
  await botA.sidecar.close();
  await botB.sidecar.close();
  await provider.close();
});

it("runs a member's grant through the bot's sidecar, confirms the write once, and refuses every misuse", async () => {
  const issueArgs = { owner: "octocat", repo: "hello-world", title: "Release 1.2 “stable”" };
  const attempts = { a: 0, b: 0 };

  // The member learns bot A's key from its sidecar and issues a read grant.
  const identity = await botA.call("/v1/identity");
  expect(identity).toMatchObject({ statusCode: 200, body: { public_key: botA.sidecar.publicKey, registry: { source: "embedded", sequence: 0 } } });
  const readGrant = memberGrants(botA.sidecar.publicKey, "read");

  // Bot A lists repositories from the provider stand-in over TLS.
  attempts.a += 1;
  const list = await botA.call("/v1/run", { grant: readGrant, op: "repos.list", args: { sort: "updated" } });
  expect(list.statusCode).toBe(200);
  expect(list.body).toEqual({
    status: "ok",
    integration: "github",
    op: "repos.list",
    http_status: 200,
    data: REPOSITORIES.map(({ node_id: _dropped, ...picked }) => picked),
  });
  expect(provider.requests).toEqual([{ method: "GET", url: "/user/repos?sort=updated&per_page=30", authorization: `Bearer ${MEMBER_TOKEN}`, body: undefined }]);

  // A write grant; the write first comes back as the exact line to show.
  const writeGrant = memberGrants(botA.sidecar.publicKey, "write");
  attempts.a += 1;
  const asked = await botA.call("/v1/run", { grant: writeGrant, op: "issues.create", args: issueArgs });
  expect(asked.statusCode).toBe(200);
  expect(asked.body).toMatchObject({
    status: "confirmation_required",
    integration: "github",
    op: "issues.create",
    confirm: "Open issue “Release 1.2 \uFFFDstable\uFFFD” in octocat/hello-world, visible to everyone who can read that repository and notifying its watchers",
    details: [{ name: "title", value: "Release 1.2 “stable”", flags: ["template_look_alike"] }],
  });
  expect(provider.requests).toHaveLength(1);

  // The member taps the chip: a confirmation over that line (their client kept the grant it signed).
  const grantPayload = openGrant(writeGrant, { bot: await botKeys(botA), trustedMembers: [member.publicKey] });
  expect(asked.body["gid"]).toBe(grantPayload.gid);
  const confirmation = signConfirmation({ member, grant: grantPayload, op: "issues.create", args: issueArgs, line: String(asked.body["confirm"]) });

  attempts.a += 1;
  const created = await botA.call("/v1/run", { grant: writeGrant, op: "issues.create", args: issueArgs, confirmation });
  expect(created.body).toMatchObject({ status: "ok", http_status: 201, data: { number: 42, title: issueArgs.title, state: "open" } });
  const writes = () => provider.requests.filter((request) => request.method === "POST");
  expect(writes()).toEqual([
    { method: "POST", url: "/repos/octocat/hello-world/issues", authorization: `Bearer ${MEMBER_TOKEN}`, body: { title: issueArgs.title } },
  ]);

  // The same call again: the stored outcome, receipt included, replayed: true; nothing sent.
  attempts.a += 1;
  const replayed = await botA.call("/v1/run", { grant: writeGrant, op: "issues.create", args: issueArgs, confirmation });
  expect(replayed.body).toEqual({ ...created.body, replayed: true });
  expect(writes()).toHaveLength(1);

  // A read grant on the write: refused, nothing sent, even with a valid-looking confirmation.
  attempts.a += 1;
  const readOnWrite = await botA.call("/v1/run", { grant: readGrant, op: "issues.create", args: issueArgs, confirmation });
  expect(readOnWrite.body).toMatchObject({ status: "error", error: { code: "access_denied" } });
  expect(writes()).toHaveLength(1);

  // Bot A's grant presented to bot B's sidecar: refused, nothing sent.
  attempts.b += 1;
  const stolen = await botB.call("/v1/run", { grant: readGrant, op: "repos.list" });
  expect(stolen.body).toMatchObject({ status: "error", integration: null, error: { code: "grant_invalid" } });
  attempts.b += 1;
  const stolenWrite = await botB.call("/v1/run", { grant: writeGrant, op: "issues.create", args: issueArgs, confirmation });
  expect(stolenWrite.body).toMatchObject({ status: "error", error: { code: "grant_invalid" } });
  expect(provider.requests).toHaveLength(2);

  // Every attempt left exactly one audit line on its own sidecar, and the write that was sent a `started` line before it.
  const auditA = await readAudit(botA.sidecar.auditFile);
  expect(auditA.filter((line) => line.replayed === true).map((line) => [line.op, line.status])).toEqual([["issues.create", "ok"]]);
  const auditB = await readAudit(botB.sidecar.auditFile);
  expect(auditA.map((line) => [line.op, line.status, line.code])).toEqual([
    ["repos.list", "ok", null],
    ["issues.create", "confirmation_required", null],
    ["issues.create", "started", null],
    ["issues.create", "ok", null],
    ["issues.create", "ok", null],
    ["issues.create", "error", "access_denied"],
  ]);
  expect(auditA).toHaveLength(attempts.a + 1);
  expect(auditB.map((line) => [line.op, line.code, line.gid])).toEqual([
    ["repos.list", "grant_invalid", null],
    ["issues.create", "grant_invalid", null],
  ]);
  expect(auditB).toHaveLength(attempts.b);
  expect(new Set(auditA.map((line) => line.member))).toEqual(new Set([member.publicKey]));

  // No log and no audit file holds a token, grant, confirmation or argument value.
  const auditText = [await readFile(botA.sidecar.auditFile, "utf8"), await readFile(botB.sidecar.auditFile, "utf8")];
  const secrets = [botA.token, botB.token, MEMBER_TOKEN, readGrant, writeGrant, confirmation, issueArgs.title, "hello-world", "octocat"];
  expect(logs.lines.length).toBeGreaterThan(0);
  expect(leakedSecrets([...logs.lines, ...auditText], secrets)).toEqual([]);
});

async function botKeys(bot: Bot): Promise<KeyPair> {
  const file = JSON.parse(await readFile(bot.sidecar.botKeyFile, "utf8")) as KeyPair;
  return { publicKey: file.publicKey, secretKey: file.secretKey };
}

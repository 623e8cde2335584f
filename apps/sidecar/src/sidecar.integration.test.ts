import { chmod, readFile, stat, writeFile } from "node:fs/promises";
import { createConnection } from "node:net";
import { join } from "node:path";
import { openGrant, signConfirmation, type KeyPair } from "@eleven-integrations/grants";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSidecar, type RunningTcpSidecar } from "./start/start-server.js";
import { grantFor, member, MEMBER_TOKEN, temporaryDirectory } from "./__fixtures__/grant-kit.js";
import { httpCall } from "./__fixtures__/http-call.js";
import { captureLogs, leakedSecrets } from "./__fixtures__/log-capture.js";
import { startProviderStandIn, type ProviderStandIn } from "./__fixtures__/provider-stand-in.js";
import { readAudit } from "./__fixtures__/test-app.js";

const logs = captureLogs();
const auditFiles: string[] = [];
const callerTokens: string[] = [];
let provider: ProviderStandIn;

async function start(home: string): Promise<{ sidecar: RunningTcpSidecar; token: string }> {
  const sidecar = await startSidecar({ home, port: 0, dispatcher: provider.dispatcher, logger: { level: "trace", stream: logs.stream } });
  const token = (await readFile(sidecar.callerTokenFile, "utf8")).trim();
  auditFiles.push(sidecar.auditFile);
  callerTokens.push(token);
  return { sidecar, token };
}

async function homeTrustingMember(): Promise<string> {
  const home = await temporaryDirectory("sidecar-home-");
  await writeFile(join(home, "trusted-members.json"), JSON.stringify([member.publicKey]), { mode: 0o644 });
  return home;
}

beforeAll(async () => {
  provider = await startProviderStandIn();
});

afterAll(async () => {
  await provider.close();
  // Every log this file produced, and every audit file: no caller token, member token, grant or arg value.
  const audits = await Promise.all(auditFiles.map((file) => readFile(file, "utf8").catch(() => "")));
  expect(logs.lines.length).toBeGreaterThan(0);
  expect(leakedSecrets([...logs.lines, ...audits], [...callerTokens, MEMBER_TOKEN, "eg1.", "ec1.", "full_name", "octocat"])).toEqual([]);
});

describe("startSidecar", () => {
  let sidecar: RunningTcpSidecar;
  let token: string;
  let home: string;

  beforeAll(async () => {
    home = await homeTrustingMember();
    ({ sidecar, token } = await start(home));
  });
  afterAll(async () => {
    await sidecar.close();
  });

  it("listens on 127.0.0.1 only and creates its files with safe modes", async () => {
    expect(sidecar.address).toBe(`http://127.0.0.1:${sidecar.port}`);
    expect(sidecar.app.server.address()).toMatchObject({ address: "127.0.0.1" });
    expect((await stat(sidecar.botKeyFile)).mode & 0o777).toBe(0o600);
    expect((await stat(sidecar.callerTokenFile)).mode & 0o777).toBe(0o600);
    expect((await stat(sidecar.auditFile)).mode & 0o777).toBe(0o600);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it.each(["127.0.0.1", "localhost", "[::1]"])("answers GET /v1/identity to Host %s:<port> with the token", async (host) => {
    const answer = await httpCall({ port: sidecar.port, path: "/v1/identity", headers: { host: `${host}:${sidecar.port}`, authorization: `Bearer ${token}` } });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ public_key: sidecar.publicKey, registry: { source: "embedded", sequence: 0, synced_at: null } });
  });

  it("answers 403 to a DNS-rebinding page, whatever it sends", async () => {
    const rebound = await httpCall({
      port: sidecar.port,
      method: "POST",
      path: "/v1/run",
      headers: { host: `attacker.example:${sidecar.port}`, origin: `http://attacker.example:${sidecar.port}`, authorization: `Bearer ${token}` },
      body: { grant: grantFor(), op: "repos.list" },
    });
    expect(rebound.statusCode).toBe(403);
    expect(rebound.json()).toMatchObject({ error: { code: "forbidden_host" } });
  });

  it("uses the port the request arrived on: the right name on another port is 403", async () => {
    const answer = await httpCall({ port: sidecar.port, path: "/v1/identity", headers: { host: "127.0.0.1:80", authorization: `Bearer ${token}` } });
    expect(answer.statusCode).toBe(403);
  });

  it("answers 403 to a cross-site Origin and to Origin: null", async () => {
    for (const origin of ["https://attacker.example", "null"]) {
      const answer = await httpCall({ port: sidecar.port, path: "/v1/identity", headers: { origin, authorization: `Bearer ${token}` } });
      expect(answer.statusCode).toBe(403);
    }
  });

  it("answers 401 without the caller token", async () => {
    const answer = await httpCall({ port: sidecar.port, path: "/v1/identity" });
    expect(answer.statusCode).toBe(401);
  });

  it("answers 413 to a chunked body past 256 KiB", async () => {
    const answer = await httpCall({
      port: sidecar.port,
      method: "POST",
      path: "/v1/run",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ grant: "x".repeat(300 * 1024), op: "repos.list" }),
      chunked: true,
    });
    expect(answer.statusCode).toBe(413);
  });

  it("runs a read for a trusted member's grant through the provider", async () => {
    const answer = await httpCall({
      port: sidecar.port,
      method: "POST",
      path: "/v1/run",
      headers: { authorization: `Bearer ${token}` },
      body: { grant: grantFor({ botPublicKey: sidecar.publicKey }), op: "repos.list" },
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ status: "ok", integration: "github", http_status: 200 });
  });

  it("keeps its keys and token across restarts", async () => {
    const again = await startSidecar({ home, port: 0 });
    try {
      expect(again.publicKey).toBe(sidecar.publicKey);
      expect((await readFile(again.callerTokenFile, "utf8")).trim()).toBe(token);
    } finally {
      await again.close();
    }
  });
});

describe("confirmations across a restart", () => {
  it("answers, after a restart, the stored outcome of a confirmation consumed before it, sending nothing", async () => {
    const home = await homeTrustingMember();
    const args = { owner: "octocat", repo: "hello-world", title: "Only once" };
    const first = await start(home);
    const botKeys = JSON.parse(await readFile(first.sidecar.botKeyFile, "utf8")) as KeyPair;
    const grant = grantFor({ access: "write", botPublicKey: first.sidecar.publicKey });
    const payload = openGrant(grant, { bot: { publicKey: botKeys.publicKey, secretKey: botKeys.secretKey }, trustedMembers: [member.publicKey] });
    const line = "Open issue “Only once” in octocat/hello-world, visible to everyone who can read that repository and notifying its watchers";
    const confirmation = signConfirmation({ member, grant: payload, op: "issues.create", args, line });
    const body = { grant, op: "issues.create", args, confirmation };
    const writes = () => provider.requests.filter((request) => request.method === "POST").length;
    const before = writes();

    const ran = await httpCall({ port: first.sidecar.port, method: "POST", path: "/v1/run", headers: { authorization: `Bearer ${first.token}` }, body });
    expect(ran.json()).toMatchObject({ status: "ok", http_status: 201 });
    expect((await stat(join(home, "outcomes.log"))).mode & 0o777).toBe(0o600);
    await first.sidecar.close();
    expect((await stat(first.sidecar.replayFile)).mode & 0o777).toBe(0o600);

    const second = await start(home);
    try {
      const replayed = await httpCall({
        port: second.sidecar.port,
        method: "POST",
        path: "/v1/run",
        headers: { authorization: `Bearer ${second.token}` },
        body,
      });
      expect(replayed.json()).toEqual({ ...(ran.json() as object), replayed: true });
      expect(writes()).toBe(before + 1);
    } finally {
      await second.sidecar.close();
    }
  });
});

describe("startSidecar and its files", () => {
  it("refuses a bot key file others can read, and does not listen", async () => {
    const home = await homeTrustingMember();
    const first = await startSidecar({ home, port: 0 });
    const { port } = first;
    await first.close();
    await chmod(first.botKeyFile, 0o644);
    await expect(startSidecar({ home, port })).rejects.toMatchObject({ name: "SidecarStartError", code: "insecure_file" });
    await expect(httpCall({ port, path: "/v1/identity" })).rejects.toMatchObject({ code: "ECONNREFUSED" });
  });

  it("refuses a caller token file others can read", async () => {
    const home = await homeTrustingMember();
    await writeFile(join(home, "caller-token"), "a-token-the-operator-wrote-0123\n", { mode: 0o600 });
    await chmod(join(home, "caller-token"), 0o640);
    await expect(startSidecar({ home, port: 0 })).rejects.toMatchObject({ code: "insecure_file" });
  });

  it("starts without trusted-members.json, trusting no one: every grant is grant_invalid", async () => {
    const { sidecar, token } = await start(await temporaryDirectory("sidecar-home-"));
    try {
      const answer = await httpCall({
        port: sidecar.port,
        method: "POST",
        path: "/v1/run",
        headers: { authorization: `Bearer ${token}` },
        body: { grant: grantFor({ botPublicKey: sidecar.publicKey }), op: "repos.list" },
      });
      expect(answer.json()).toMatchObject({ status: "error", error: { code: "grant_invalid", message: expect.stringMatching(/untrusted_member/) as string } });
      expect(logs.lines.some((line) => line.includes("trusts no member"))).toBe(true);
    } finally {
      await sidecar.close();
    }
  });

  it("refuses a port out of range", async () => {
    await expect(startSidecar({ home: await homeTrustingMember(), port: 70000 })).rejects.toMatchObject({ code: "invalid_setting" });
  });

  it("creates a missing home directory with mode 0700", async () => {
    const home = join(await temporaryDirectory(), "nested", "home");
    const sidecar = await startSidecar({ home, port: 0 });
    await sidecar.close();
    expect((await stat(home)).mode & 0o777).toBe(0o700);
  });
});

describe("graceful shutdown", () => {
  it("lets a run in flight finish and write its audit line, and refuses new connections", async () => {
    const { sidecar, token } = await start(await homeTrustingMember());
    provider.setReposDelay(400);
    try {
      const before = provider.requests.length;
      const inFlight = httpCall({
        port: sidecar.port,
        method: "POST",
        path: "/v1/run",
        headers: { authorization: `Bearer ${token}` },
        body: { grant: grantFor({ botPublicKey: sidecar.publicKey }), op: "repos.list" },
      });
      while (provider.requests.length === before) await new Promise((resolve) => setTimeout(resolve, 5));

      const closing = sidecar.close();
      await expect(httpCall({ port: sidecar.port, path: "/v1/identity", headers: { authorization: `Bearer ${token}` } })).rejects.toMatchObject({
        code: "ECONNREFUSED",
      });

      const answer = await inFlight;
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toMatchObject({ status: "ok", op: "repos.list" });
      await closing;
      const records = await readAudit(sidecar.auditFile);
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({ status: "ok", op: "repos.list", http_status: 200 });
    } finally {
      provider.setReposDelay(0);
    }
  });

  it("still writes the audit line of a run whose caller hung up before close", async () => {
    const { sidecar, token } = await start(await homeTrustingMember());
    provider.setReposDelay(300);
    try {
      const before = provider.requests.length;
      const body = JSON.stringify({ grant: grantFor({ botPublicKey: sidecar.publicKey }), op: "repos.list" });
      const socket = createConnection({ host: "127.0.0.1", port: sidecar.port });
      socket.on("error", () => {});
      socket.end(
        `POST /v1/run HTTP/1.1\r\nHost: 127.0.0.1:${sidecar.port}\r\nAuthorization: Bearer ${token}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      while (provider.requests.length === before) await new Promise((resolve) => setTimeout(resolve, 5));
      socket.destroy();
      await sidecar.close();
      expect(await readAudit(sidecar.auditFile)).toMatchObject([{ status: "ok", op: "repos.list" }]);
    } finally {
      provider.setReposDelay(0);
    }
  });
});

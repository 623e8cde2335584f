// One sidecar without Redis: the same rules, kept in the process and on disk.
import { chmod, mkdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { generateBotKeys, signConfirmation, signRevocation } from "@eleven-integrations/grants";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSidecar, type RunningTcpSidecar } from "../start/start-server.js";
import { grantFor, lineFor, member, opened, temporaryDirectory } from "../__fixtures__/grant-kit.js";
import { httpCall } from "../__fixtures__/http-call.js";
import type { LooseAnswer } from "../__fixtures__/sidecar-fleet.js";
import { authorized, mockProvider, readAudit } from "../__fixtures__/test-app.js";
import { buildApp } from "../app.js";
import { systemJournalIo } from "../audit/line-journal.js";
import { LocalState } from "./local-state.js";
import { bot, CALLER_TOKEN, confirmationFor, registry } from "../__fixtures__/grant-kit.js";
import { startProviderStandIn, type ProviderStandIn } from "../__fixtures__/provider-stand-in.js";

const ISSUE_ARGS = { owner: "octocat", repo: "hello-world", title: "Crash on start" };
let provider: ProviderStandIn;

beforeAll(async () => {
  provider = await startProviderStandIn();
});
afterAll(async () => {
  await provider.close();
});

async function home(): Promise<string> {
  const dir = await temporaryDirectory("sidecar-home-");
  await writeFile(join(dir, "trusted-members.json"), JSON.stringify([member.publicKey]), { mode: 0o600 });
  return dir;
}

async function caller(sidecar: RunningTcpSidecar) {
  const token = (await readFile(sidecar.callerTokenFile, "utf8")).trim();
  return async (path: string, body: unknown) => {
    const answer = await httpCall({ port: sidecar.port, method: "POST", path, headers: { authorization: `Bearer ${token}` }, body });
    return answer.json() as LooseAnswer;
  };
}

describe("a sidecar without Redis", () => {
  it("limits runs per grant in process, and keeps a revocation across a restart", async () => {
    const dir = await home();
    let sidecar = await startSidecar({ home: dir, port: 0, dispatcher: provider.dispatcher, rateLimits: { perGrant: { points: 2, durationSeconds: 60 } } });
    try {
      let call = await caller(sidecar);
      const grant = grantFor({ botPublicKey: sidecar.publicKey, access: "write" });
      const before = provider.requests.length;
      expect((await call("/v1/run", { grant, op: "repos.list" })).status).toBe("ok");
      expect((await call("/v1/run", { grant, op: "repos.list" })).status).toBe("ok");
      const limited = await call("/v1/run", { grant, op: "repos.list" });
      expect(limited.error).toMatchObject({ code: "rate_limited" });
      expect(limited.error.retry_after_s).toBeGreaterThan(0);
      expect(provider.requests.length - before).toBe(2);

      const revoked = await call("/v1/revoke", { revocation: signRevocation({ member, grant }) });
      expect(revoked.status).toBe("ok");
      const audit = await readAudit(sidecar.auditFile);
      expect(audit.at(-1)).toMatchObject({ status: "revoked", gid: revoked.gid, member: member.publicKey, integration: "github", op: null });
      expect((await stat(sidecar.revocationFile)).mode & 0o777).toBe(0o600);
      await sidecar.close();

      sidecar = await startSidecar({ home: dir, port: 0, dispatcher: provider.dispatcher });
      call = await caller(sidecar);
      const afterRestart = await call("/v1/run", { grant, op: "repos.list" });
      expect(afterRestart.error).toMatchObject({ code: "grant_invalid", message: "the member revoked this grant" });
      const write = await call("/v1/run", { grant, op: "issues.create", args: ISSUE_ARGS });
      expect(write.error.code).toBe("grant_invalid");
      expect(provider.requests.length - before).toBe(2);
      // Another grant still runs.
      expect((await call("/v1/run", { grant: grantFor({ botPublicKey: sidecar.publicKey }), op: "repos.list" })).status).toBe("ok");
    } finally {
      await sidecar.close();
    }
  });

  it("runs one confirmation once across a restart (the journal is flushed before the write)", async () => {
    const dir = await home();
    let sidecar = await startSidecar({ home: dir, port: 0, dispatcher: provider.dispatcher });
    try {
      const botKeys = JSON.parse(await readFile(sidecar.botKeyFile, "utf8")) as { publicKey: string; secretKey: string };
      const grant = grantFor({ botPublicKey: sidecar.publicKey, access: "write" });
      const confirmation = signConfirmation({
        member,
        grant: opened(grant, botKeys),
        op: "issues.create",
        args: ISSUE_ARGS,
        line: lineFor("issues.create", ISSUE_ARGS),
      });
      let call = await caller(sidecar);
      const before = provider.requests.length;
      const first = await call("/v1/run", { grant, op: "issues.create", args: ISSUE_ARGS, confirmation });
      expect(first.status).toBe("ok");
      await sidecar.close();
      sidecar = await startSidecar({ home: dir, port: 0, dispatcher: provider.dispatcher });
      call = await caller(sidecar);
      // The same call again answers the stored outcome (outcomes.log), nothing sent.
      expect(await call("/v1/run", { grant, op: "issues.create", args: ISSUE_ARGS, confirmation })).toEqual({ ...first, replayed: true });
      expect(provider.requests.length - before).toBe(1);
    } finally {
      await sidecar.close();
    }
  });
});

describe("a replay journal on a full disk", () => {
  it("answers unavailable and sends nothing when the consumed confirmation cannot be flushed", async () => {
    const dir = await temporaryDirectory();
    let full = false;
    const state = new LocalState({
      replayFile: join(dir, "replay.log"),
      io: {
        write: (fd, buffer, offset, length) => {
          if (full) throw Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" });
          return systemJournalIo.write(fd, buffer, offset, length);
        },
        sync: systemJournalIo.sync,
      },
    });
    const upstream = mockProvider();
    const app = buildApp({
      registry,
      botKeys: bot,
      trustedMembers: [member.publicKey],
      callerToken: CALLER_TOKEN,
      auditFile: join(dir, "audit.log"),
      dispatcher: upstream.dispatcher,
      state,
    });
    try {
      await app.ready();
      full = true;
      const grant = grantFor({ access: "write" });
      const response = await app.inject({
        method: "POST",
        url: "/v1/run",
        headers: authorized,
        payload: { grant, op: "issues.create", args: ISSUE_ARGS, confirmation: confirmationFor(grant, "issues.create", ISSUE_ARGS) },
      });
      expect(response.json()).toMatchObject({ status: "error", op: "issues.create", error: { code: "unavailable" } });
      expect(upstream.sent).toEqual([]);
      expect((await readAudit(join(dir, "audit.log"))).map((line) => line.code)).toEqual(["unavailable"]);
    } finally {
      await app.close();
      await upstream.agent.close();
    }
  });
});

describe("the sidecar's home folder", () => {
  it("is refused when group or others can write to it", async () => {
    const dir = await home();
    await chmod(dir, 0o770);
    await expect(startSidecar({ home: dir, port: 0 })).rejects.toMatchObject({ code: "insecure_home" });
    await chmod(dir, 0o702);
    await expect(startSidecar({ home: dir, port: 0 })).rejects.toMatchObject({ code: "insecure_home" });
  });

  it("never follows a symlink planted for a key file or the audit log", async () => {
    const dir = await home();
    const elsewhere = await temporaryDirectory("elsewhere-");
    await writeFile(join(elsewhere, "bot-key.json"), JSON.stringify({ kind: "bot", ...generateBotKeys() }), { mode: 0o600 });
    await symlink(join(elsewhere, "bot-key.json"), join(dir, "bot-key.json"));
    await expect(startSidecar({ home: dir, port: 0 })).rejects.toMatchObject({ code: "not_a_file" });

    const second = await home();
    await writeFile(join(elsewhere, "audit.log"), "", { mode: 0o600 });
    await symlink(join(elsewhere, "audit.log"), join(second, "audit.log"));
    await expect(startSidecar({ home: second, port: 0 })).rejects.toThrow(/ELOOP|symbolic/);
    expect(await readFile(join(elsewhere, "audit.log"), "utf8")).toBe("");

    const third = await home();
    await mkdir(join(elsewhere, "sub"));
    await symlink(join(elsewhere, "sub", "replay"), join(third, "replay.log"));
    await expect(startSidecar({ home: third, port: 0 })).rejects.toThrow(/ELOOP|symbolic/);
  });
});

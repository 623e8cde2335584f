// Third review, finding 7, the sidecar's side: it records signed checkpoints of the audit
// journal's head apart from the journal, counts on from them across restarts, says so when
// the journal lost what a checkpoint recorded, and repairs a line a crash cut short.
import { appendFile, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { verifyAuditCheckpoint } from "@eleven-integrations/grants";
import { describe, expect, it } from "vitest";
import { grantFor, member, temporaryDirectory } from "../__fixtures__/grant-kit.js";
import { httpCall } from "../__fixtures__/http-call.js";
import { captureLogs } from "../__fixtures__/log-capture.js";
import { startProviderStandIn } from "../__fixtures__/provider-stand-in.js";
import { startSidecar } from "../start/start-server.js";
import { generateReceiptKeys } from "@eleven-integrations/grants";
import { lineHash } from "./audit-chain.js";
import { AuditCheckpoints, checkpointFileFor } from "./audit-checkpoints.js";

async function textLines(path: string): Promise<string[]> {
  return (await readFile(path, "utf8")).split("\n").slice(0, -1);
}

describe("the sidecar's audit checkpoints", () => {
  it("are signed with its receipt key beside the journal (0600), count on across a restart, and name a journal that lost its newest lines", async () => {
    const provider = await startProviderStandIn();
    const home = await temporaryDirectory("sidecar-checkpoints-");
    await writeFile(join(home, "trusted-members.json"), JSON.stringify([member.publicKey]), { mode: 0o644 });
    const start = (logs = captureLogs()) => startSidecar({ home, port: 0, dispatcher: provider.dispatcher, logger: { level: "info", stream: logs.stream } });
    const calls = async (sidecar: Awaited<ReturnType<typeof start>>, count: number) => {
      const token = (await readFile(sidecar.callerTokenFile, "utf8")).trim();
      const grant = grantFor({ botPublicKey: sidecar.publicKey });
      for (let i = 0; i < count; i += 1) {
        await httpCall({
          port: sidecar.port,
          method: "POST",
          path: "/v1/run",
          headers: { authorization: `Bearer ${token}` },
          body: { grant, op: "repos.list" },
        });
      }
      const identity = await httpCall({ port: sidecar.port, path: "/v1/identity", headers: { authorization: `Bearer ${token}` } });
      return (identity.json() as { receipt_key: string }).receipt_key;
    };
    try {
      const first = await start();
      const receiptKey = await calls(first, 3);
      await first.close();
      const checkpoints = join(home, "audit.checkpoints");
      expect((await stat(checkpoints)).mode & 0o777).toBe(0o600);
      const audit = await textLines(first.auditFile);
      const last = verifyAuditCheckpoint((await textLines(checkpoints)).at(-1) as string, { key: receiptKey });
      expect(last).toMatchObject({ lines: audit.length, head: lineHash(audit.at(-1) as string) });

      const second = await start();
      await calls(second, 2);
      await second.close();
      const grown = await textLines(first.auditFile);
      expect(verifyAuditCheckpoint((await textLines(checkpoints)).at(-1) as string, { key: receiptKey })).toMatchObject({
        lines: grown.length,
        head: lineHash(grown.at(-1) as string),
      });

      // The attack: the newest lines removed while the sidecar was down.
      await writeFile(first.auditFile, `${grown.slice(0, 2).join("\n")}\n`);
      const logs = captureLogs();
      const third = await start(logs);
      await third.close();
      const said = logs.lines.map((line) => JSON.parse(line) as { level: number; msg: string; recorded?: { lines: number }; found?: { lines: number } });
      expect(said.find((line) => line.msg.includes("no longer holds the head its last checkpoint recorded"))).toMatchObject({
        level: 50,
        recorded: { lines: grown.length },
        found: { lines: 2 },
      });
      // The checkpoint that recorded the longer journal stays where verify finds it.
      const recorded = (await textLines(checkpoints)).map((line) => verifyAuditCheckpoint(line).lines);
      expect(recorded).toContain(grown.length);
      expect(recorded.at(-1)).toBe(2);
    } finally {
      await provider.close();
    }
  });

  it("repair a line a crash cut short at start: the torn bytes stay, a repair line chained to the line before follows, and the next run's line after it", async () => {
    const provider = await startProviderStandIn();
    const home = await temporaryDirectory("sidecar-torn-");
    await writeFile(join(home, "trusted-members.json"), JSON.stringify([member.publicKey]), { mode: 0o644 });
    try {
      const first = await startSidecar({ home, port: 0, dispatcher: provider.dispatcher });
      const token = (await readFile(first.callerTokenFile, "utf8")).trim();
      const call = (port: number, grant: string) =>
        httpCall({ port, method: "POST", path: "/v1/run", headers: { authorization: `Bearer ${token}` }, body: { grant, op: "repos.list" } });
      await call(first.port, grantFor({ botPublicKey: first.publicKey }));
      await first.close();
      const torn = '{"time":"2026-12-07T00:00:00.000Z","audit_id":"1f0e';
      await appendFile(first.auditFile, torn);
      const second = await startSidecar({ home, port: 0, dispatcher: provider.dispatcher });
      expect((await call(second.port, grantFor({ botPublicKey: second.publicKey }))).statusCode).toBe(200);
      await second.close();
      const lines = await textLines(second.auditFile);
      expect(lines).toHaveLength(4);
      expect(lines[1]).toBe(torn);
      expect(JSON.parse(lines[2] as string)).toMatchObject({
        kind: "repair",
        torn_bytes: torn.length,
        torn_sha256: lineHash(torn),
        prev: lineHash(lines[0] as string),
      });
      expect(JSON.parse(lines[3] as string)).toMatchObject({ op: "repos.list", status: "ok", prev: lineHash(lines[2] as string) });
    } finally {
      await provider.close();
    }
  });
});

describe("AuditCheckpoints", () => {
  it("live beside the audit file (audit.log and its rotated files → audit.checkpoints), and narrow a wider mode to 0600", async () => {
    const dir = await temporaryDirectory("sidecar-checkpoint-file-");
    expect(checkpointFileFor(join(dir, "audit.log"))).toBe(join(dir, "audit.checkpoints"));
    expect(checkpointFileFor(join(dir, "audit.log.20261202T033245123Z"))).toBe(join(dir, "audit.checkpoints"));
    const path = join(dir, "audit.checkpoints");
    await writeFile(path, "", { mode: 0o644 });
    const keys = generateReceiptKeys();
    const checkpoints = new AuditCheckpoints(path, () => keys);
    expect(checkpoints.open()).toBeUndefined();
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    checkpoints.record({ lines: 3, head: "ab".repeat(32) });
    checkpoints.record({ lines: 3, head: "ab".repeat(32) });
    checkpoints.close();
    expect(await textLines(path)).toHaveLength(1);
    expect(new AuditCheckpoints(path, () => keys).open()).toEqual({ lines: 3, head: "ab".repeat(32) });
  });
});

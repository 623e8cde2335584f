// The bot under its own user (issue 44): the sidecar's user shares the socket and the caller
// token with the callers' group (SIDECAR_CALLER_GROUP) and nothing else. As root (CI), two
// temporary system users are made and removed: the sidecar runs as one, and the other,
// spawned with the callers' group, can call it and cannot read a key, a journal or the audit log.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmod, chown, lstat, mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveCallerGroup } from "./caller-group.js";
import { startSidecar, type RunningSidecar } from "./start-server.js";
import { SidecarStartError } from "./start-error.js";

const SERVER = fileURLToPath(new URL("../../dist/server.js", import.meta.url));
const isRoot = process.getuid?.() === 0;
/** Every file of the home but the two the callers' group shares. */
const OWNER_ONLY = [
  "bot-key.json",
  "audit-key",
  "receipt-key.json",
  "audit.log",
  "audit.checkpoints",
  "replay.log",
  "outcomes.log",
  "revocations.log",
  "approvals.log",
];

/** What the bot's user can do, run as that user: call the sidecar with the token it can read, and read each other file. */
const PROBE = `
const { request } = require("node:http");
const { readFileSync, readdirSync } = require("node:fs");
const [home, files] = [process.argv[1], JSON.parse(process.argv[2])];
const attempt = (f) => { try { f(); return "read"; } catch (e) { return e.code; } };
const result = { files: Object.fromEntries(files.map((name) => [name, attempt(() => readFileSync(home + "/" + name))])), list: attempt(() => readdirSync(home)) };
let token = "";
result.token = attempt(() => { token = readFileSync(home + "/caller-token", "utf8").trim(); });
const call = request({ socketPath: home + "/sidecar.sock", path: "/v1/identity", headers: { authorization: "Bearer " + token } }, (response) => {
  let body = ""; response.on("data", (c) => body += c);
  response.on("end", () => { result.identity = { status: response.statusCode, body: JSON.parse(body) }; console.log(JSON.stringify(result)); });
});
call.on("error", (e) => { result.identity = { error: e.code }; console.log(JSON.stringify(result)); });
call.end();
`;

interface Probe {
  files: Record<string, string>;
  list: string;
  token: string;
  identity: { status?: number; body?: { public_key?: string }; error?: string };
}

function probeAs(uid: number, gid: number, home: string): Probe {
  const output = execFileSync(process.execPath, ["-e", PROBE, home, JSON.stringify(OWNER_ONLY)], { uid, gid, encoding: "utf8", cwd: "/" });
  return JSON.parse(output) as Probe;
}

const idOf = (flag: "-u" | "-g", name: string) => Number(execFileSync("id", [flag, name], { encoding: "utf8" }).trim());

// Not as root (a developer's machine) the describe after it checks the modes alone.
if (isRoot)
  describe("the bot and the sidecar under different users (as root: two temporary system users)", () => {
    const suffix = randomBytes(3).toString("hex");
    const names = { sidecar: `elv-sc-${suffix}`, bot: `elv-bot-${suffix}`, group: `elv-bots-${suffix}` };
    let ids: { sidecar: number; bot: number; botOwnGroup: number; group: number };
    let parent: string;
    let home: string;
    let child: ChildProcess | undefined;

    beforeAll(async () => {
      execFileSync("groupadd", ["--system", names.group]);
      // The sidecar's user has the callers' group as its primary group (systemd: Group=), the bot's user has it as a supplementary one.
      execFileSync("useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "--no-user-group", "--gid", names.group, names.sidecar]);
      execFileSync("useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "--user-group", "--groups", names.group, names.bot]);
      ids = {
        sidecar: idOf("-u", names.sidecar),
        bot: idOf("-u", names.bot),
        botOwnGroup: idOf("-g", names.bot),
        group: Number(execFileSync("getent", ["group", names.group], { encoding: "utf8" }).split(":")[2]),
      };
      // The documented setup: install -d -o <sidecar user> -g <callers' group> -m 0710 <home>.
      parent = await mkdtemp(join(tmpdir(), "elv-users-"));
      await chmod(parent, 0o711);
      home = join(parent, "home");
      await mkdir(home);
      await chown(home, ids.sidecar, ids.group);
      await chmod(home, 0o710);
      child = spawn(process.execPath, [SERVER], {
        uid: ids.sidecar,
        gid: ids.group,
        cwd: "/",
        env: { SIDECAR_HOME: home, SIDECAR_CALLER_GROUP: names.group, LOG_LEVEL: "warn" },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let output = "";
      await new Promise<void>((resolve, reject) => {
        child?.stderr?.on("data", (chunk: Buffer) => {
          output += chunk.toString("utf8");
          if (output.includes("listening on unix:")) resolve();
        });
        child?.once("exit", (code) => reject(new Error(`the sidecar exited ${code}: ${output}`)));
      });
    }, 60_000);

    afterAll(async () => {
      if (child !== undefined && child.exitCode === null) {
        const exited = new Promise((resolve) => child?.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      for (const user of [names.sidecar, names.bot]) execFileSync("userdel", [user], { stdio: "ignore" });
      execFileSync("groupdel", [names.group], { stdio: "ignore" });
      if (parent !== undefined) await rm(parent, { recursive: true, force: true });
    });

    it("gives the callers' group the socket (0660) and the caller token (0640), and keeps every other file 0600 to the sidecar's user", async () => {
      const socket = await lstat(join(home, "sidecar.sock"));
      expect([socket.mode & 0o777, socket.uid, socket.gid]).toEqual([0o660, ids.sidecar, ids.group]);
      const token = await stat(join(home, "caller-token"));
      expect([token.mode & 0o777, token.uid, token.gid]).toEqual([0o640, ids.sidecar, ids.group]);
      for (const name of OWNER_ONLY) {
        const file = await stat(join(home, name));
        expect([name, file.mode & 0o777, file.uid]).toEqual([name, 0o600, ids.sidecar]);
      }
    });

    it("lets the bot's user, in the callers' group, read the caller token and get /v1/identity over the socket", () => {
      const probe = probeAs(ids.bot, ids.group, home);
      expect(probe.token).toBe("read");
      expect(probe.identity.status).toBe(200);
      expect(probe.identity.body?.public_key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });

    it("refuses the bot's user the bot key, the audit key, the receipt key, the journals and the audit log, and the home's listing", () => {
      const probe = probeAs(ids.bot, ids.group, home);
      expect(probe.files).toEqual(Object.fromEntries(OWNER_ONLY.map((name) => [name, "EACCES"])));
      expect(probe.list).toBe("EACCES");
    });

    it("refuses the same user outside the callers' group even the socket and the token", () => {
      const probe = probeAs(ids.bot, ids.botOwnGroup, home);
      expect(probe.token).toBe("EACCES");
      expect(probe.identity.error).toBe("EACCES");
    });
  });

describe("SIDECAR_CALLER_GROUP, run by whichever user runs the tests", () => {
  let sidecar: RunningSidecar;
  const gid = process.getgid?.() ?? 0;

  beforeAll(async () => {
    const home = await mkdtemp(join(tmpdir(), "elv-cg-"));
    sidecar = await startSidecar({ home, callerGroup: String(gid) });
  });
  afterAll(() => sidecar.close());

  it("shares the socket and the caller token with the group, and nothing else", async () => {
    expect((await lstat(sidecar.socketPath as string)).mode & 0o777).toBe(0o660);
    expect((await stat(sidecar.callerTokenFile)).mode & 0o777).toBe(0o640);
    expect((await stat(sidecar.botKeyFile)).mode & 0o777).toBe(0o600);
    expect((await stat(sidecar.auditKeyFile)).mode & 0o777).toBe(0o600);
  });

  it("still refuses a group-readable caller token when no caller group is set", async () => {
    await sidecar.close();
    const error = await startSidecar({ home: sidecar.home }).catch((caught: unknown) => caught);
    expect(SidecarStartError.isInstance(error) && error.code).toBe("insecure_file");
    sidecar = await startSidecar({ home: sidecar.home, callerGroup: String(gid) });
  });

  it("resolves a group name from the group file, and refuses one it does not have", async () => {
    const groupFile = join(sidecar.home, "group-fixture");
    await writeFile(groupFile, "root:x:0:\nbots:x:4242:alice,bob\n");
    expect(await resolveCallerGroup("bots", groupFile)).toBe(4242);
    expect(await resolveCallerGroup("977", groupFile)).toBe(977);
    await expect(resolveCallerGroup("nobody-here", groupFile)).rejects.toMatchObject({ code: "invalid_setting" });
    await expect(resolveCallerGroup("../etc", groupFile)).rejects.toMatchObject({ code: "invalid_setting" });
  });

  it("refuses a caller group with a TCP port", async () => {
    const error = await startSidecar({ home: sidecar.home, port: 0, callerGroup: String(gid) }).catch((caught: unknown) => caught);
    expect(SidecarStartError.isInstance(error) && error.code).toBe("invalid_setting");
  });
});

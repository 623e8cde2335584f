// The bot's channel: a Unix socket only its user can open, by default; loopback TCP only when asked.
import { lstat, mkdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { member, temporaryDirectory } from "../__fixtures__/grant-kit.js";
import { httpCall } from "../__fixtures__/http-call.js";
import { optionsFromEnvironment } from "../config/server-config.js";
import { startSidecar, type RunningSidecar } from "./start-server.js";

async function home(): Promise<string> {
  const folder = await temporaryDirectory("sc-");
  await writeFile(join(folder, "trusted-members.json"), JSON.stringify([member.publicKey]), { mode: 0o600 });
  return folder;
}

describe("the default: a Unix socket in the sidecar's home", () => {
  let sidecar: RunningSidecar;
  let token: string;

  beforeAll(async () => {
    sidecar = await startSidecar({ home: await home() });
    token = (await readFile(sidecar.callerTokenFile, "utf8")).trim();
  });
  afterAll(() => sidecar.close());

  it("listens on <home>/sidecar.sock, mode 0600, and on no TCP port", async () => {
    expect(sidecar.socketPath).toBe(join(sidecar.home, "sidecar.sock"));
    expect(sidecar.address).toBe(`unix:${sidecar.socketPath}`);
    expect(sidecar.port).toBeUndefined();
    const info = await lstat(sidecar.socketPath as string);
    expect(info.isSocket()).toBe(true);
    expect(info.mode & 0o777).toBe(0o600);
    expect((await stat(sidecar.home)).mode & 0o077).toBe(0);
    expect(typeof sidecar.app.server.address()).toBe("string");
  });

  it("answers over the socket, still behind the caller token", async () => {
    const answer = await httpCall({ socketPath: sidecar.socketPath as string, path: "/v1/identity", headers: { authorization: `Bearer ${token}` } });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ public_key: sidecar.publicKey });
    const refused = await httpCall({ socketPath: sidecar.socketPath as string, path: "/v1/identity" });
    expect(refused.statusCode).toBe(401);
  });

  it("refuses to start a second sidecar on the same socket", async () => {
    await expect(startSidecar({ home: sidecar.home })).rejects.toMatchObject({ name: "SidecarStartError", code: "in_use" });
  });
});

describe("the socket path", () => {
  it("replaces a socket left by a crashed sidecar, and removes its own on close", async () => {
    const folder = await home();
    const path = join(folder, "sidecar.sock");
    // A process that listens on the path and is killed: its socket file stays behind, nobody answers.
    const child = spawn(process.execPath, ["-e", `require("node:net").createServer().listen(${JSON.stringify(path)}, () => process.stdout.write("up"))`], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    await new Promise((resolve) => child.stdout.once("data", resolve));
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    expect((await lstat(path)).isSocket()).toBe(true);
    const sidecar = await startSidecar({ home: folder });
    expect((await lstat(path)).isSocket()).toBe(true);
    await sidecar.close();
    await expect(lstat(path)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("refuses a regular file or a symlink at the socket path, leaving it alone", async () => {
    const folder = await home();
    await writeFile(join(folder, "sidecar.sock"), "not a socket");
    await expect(startSidecar({ home: folder })).rejects.toMatchObject({ code: "not_a_file" });
    expect(await readFile(join(folder, "sidecar.sock"), "utf8")).toBe("not a socket");

    const other = await home();
    const target = join(other, "elsewhere.sock");
    await mkdir(join(other, "sub"), { mode: 0o700 });
    await symlink(target, join(other, "sidecar.sock"));
    await expect(startSidecar({ home: other })).rejects.toMatchObject({ code: "not_a_file" });
    await expect(lstat(target)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("takes another socket path, and refuses a socket and a port together", async () => {
    const folder = await home();
    const socket = join(folder, "bot.sock");
    const sidecar = await startSidecar({ home: folder, socket });
    expect(sidecar.address).toBe(`unix:${socket}`);
    expect((await lstat(socket)).mode & 0o777).toBe(0o600);
    await sidecar.close();
    await expect(startSidecar({ home: folder, socket, port: 0 } as never)).rejects.toMatchObject({ code: "invalid_setting" });
  });

  it("listens on loopback TCP only when asked for a port", async () => {
    const sidecar = await startSidecar({ home: await home(), port: 0 });
    expect(sidecar.address).toBe(`http://127.0.0.1:${sidecar.port}`);
    expect(sidecar.socketPath).toBeUndefined();
    await expect(lstat(join(sidecar.home, "sidecar.sock"))).rejects.toMatchObject({ code: "ENOENT" });
    await sidecar.close();
  });
});

describe("the eleven-sidecar environment", () => {
  it("listens on the socket unless PORT is set; SIDECAR_SOCKET moves it; both together are refused", () => {
    expect(optionsFromEnvironment({ SIDECAR_HOME: "/srv/bot" })).toEqual({ home: "/srv/bot", logger: { level: "info" } });
    expect(optionsFromEnvironment({ SIDECAR_SOCKET: "/run/bot.sock" })).toEqual({ socket: "/run/bot.sock", logger: { level: "info" } });
    expect(() => optionsFromEnvironment({ SIDECAR_SOCKET: "/run/bot.sock", PORT: "8787" })).toThrow(/not both/);
  });
});

// A real redis-server for tests and benches: started on a free loopback port in
// a temporary folder, stopped (and restarted on the same port) on demand. On a
// fresh machine without redis-server it is installed from the system's packages
// first (Debian: apt-get update once, then apt-get install -y redis-server).
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";

function which(name) {
  return spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).stdout.trim();
}

/** Finds redis-server, installing it with apt-get when missing; throws with what to do when that fails. */
export function ensureRedisServer() {
  return ensureProgram("redis-server");
}

/** Finds redis-sentinel (Debian's redis-sentinel package), installing it when missing. */
export function ensureRedisSentinel() {
  return ensureProgram("redis-sentinel");
}

const tried = new Set();

function ensureProgram(program) {
  let path = which(program);
  if (path !== "" || tried.has(program)) return path;
  tried.add(program);
  const sudo = process.getuid?.() === 0 ? [] : ["sudo", "-n"];
  const run = (args) =>
    spawnSync(sudo.length > 0 ? sudo[0] : args[0], sudo.length > 0 ? [...sudo.slice(1), ...args] : args.slice(1), {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  // Wait for the package lock rather than fail when another test file installs at the same time.
  const lock = ["-o", "DPkg::Lock::Timeout=300"];
  run(["apt-get", ...lock, "update"]);
  run(["apt-get", ...lock, "install", "-y", "--no-install-recommends", program]);
  path = which(program);
  if (path === "") throw new Error(`${program} is missing and could not be installed: run \`apt-get install -y ${program}\``);
  return path;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function canConnect(port) {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

async function waitFor(check, what, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`redis-server: timed out waiting until ${what}`);
}

/**
 * Starts redis-server on 127.0.0.1 and a free port, persistence off, in a fresh
 * temporary folder. `stop()` kills it (the port stays reserved for `start()`,
 * which brings it back on the same port, empty), `close()` stops it for good and
 * removes the folder.
 */
export async function startRedisServer() {
  const binary = ensureRedisServer();
  const dir = mkdtempSync(join(tmpdir(), "eleven-redis-"));
  let port = await freePort();
  let child;

  async function start() {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const proc = spawn(
        binary,
        [
          "--port",
          String(port),
          "--bind",
          "127.0.0.1",
          "--dir",
          dir,
          "--save",
          "",
          "--appendonly",
          "no",
          "--protected-mode",
          "yes",
          "--daemonize",
          "no",
          "--loglevel",
          "warning",
        ],
        { stdio: ["ignore", "ignore", "pipe"] },
      );
      let exited = false;
      proc.once("exit", () => {
        exited = true;
      });
      try {
        await waitFor(async () => exited || (await canConnect(port)), `port ${port} accepts connections`);
      } catch (error) {
        proc.kill("SIGKILL");
        throw error;
      }
      if (!exited) {
        child = proc;
        return;
      }
      // The port was taken between choosing and binding: pick another.
      port = await freePort();
    }
    throw new Error("redis-server did not start");
  }

  async function stop() {
    const proc = child;
    if (proc === undefined) return;
    child = undefined;
    if (proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise((resolve) => proc.once("exit", resolve));
      proc.kill("SIGKILL");
      await exited;
    }
    await waitFor(async () => !(await canConnect(port)), `port ${port} is closed`);
  }

  await start();
  return {
    get port() {
      return port;
    },
    get url() {
      return `redis://127.0.0.1:${port}`;
    },
    start,
    stop,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A primary and one replica (two real redis-servers, the replica in sync) watched by
 * one real redis-sentinel on 127.0.0.1 under `name`, quorum 1, down after 1 s.
 * `failover()` forces SENTINEL FAILOVER and returns once the sentinel names the
 * replica as primary and the old primary has become its replica.
 */
export async function startRedisSentinel({ name = "eleven-test" } = {}) {
  const primary = await startRedisServer();
  const replica = await startRedisServer();
  const dir = mkdtempSync(join(tmpdir(), "eleven-sentinel-"));
  let sentinel;
  const close = async () => {
    if (sentinel !== undefined && sentinel.exitCode === null && sentinel.signalCode === null) {
      const exited = new Promise((resolve) => sentinel.once("exit", resolve));
      sentinel.kill("SIGKILL");
      await exited;
    }
    await primary.close();
    await replica.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const toReplica = new Redis(replica.url);
    await toReplica.replicaof("127.0.0.1", primary.port);
    await waitFor(async () => (await toReplica.info("replication")).includes("master_link_status:up"), "the replica is in sync", 20_000);
    await toReplica.quit();
    const port = await freePort();
    const config = join(dir, "sentinel.conf");
    writeFileSync(
      config,
      [
        `port ${port}`,
        "bind 127.0.0.1",
        `dir ${dir}`,
        `sentinel monitor ${name} 127.0.0.1 ${primary.port} 1`,
        `sentinel down-after-milliseconds ${name} 1000`,
        `sentinel failover-timeout ${name} 5000`,
        "",
      ].join("\n"),
    );
    sentinel = spawn(ensureRedisSentinel(), [config], { stdio: "ignore" });
    const ask = () => {
      const client = new Redis({ port, host: "127.0.0.1", lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      client.on("error", () => undefined);
      return client;
    };
    const query = async (...args) => {
      const client = ask();
      try {
        await client.connect();
        return await client.call("SENTINEL", ...args);
      } catch {
        return undefined;
      } finally {
        client.disconnect();
      }
    };
    await waitFor(async () => ((await query("REPLICAS", name)) ?? []).length === 1, "the sentinel knows the replica", 20_000);
    const primaryPort = async () => Number(((await query("GET-MASTER-ADDR-BY-NAME", name)) ?? [])[1]);
    return {
      name,
      port,
      primary,
      replica,
      primaryPort,
      async failover() {
        const before = await primaryPort();
        const other = before === primary.port ? replica : primary;
        const old = before === primary.port ? primary : replica;
        if ((await query("FAILOVER", name)) !== "OK") throw new Error("redis-sentinel refused SENTINEL FAILOVER");
        await waitFor(async () => (await primaryPort()) === other.port, "the sentinel names the replica as primary", 20_000);
        const client = new Redis(old.url);
        try {
          await waitFor(async () => (await client.call("ROLE"))[0] === "slave", "the old primary is a replica", 20_000);
        } finally {
          client.disconnect();
        }
        return { from: old.port, to: other.port };
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

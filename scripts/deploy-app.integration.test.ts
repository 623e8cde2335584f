import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { lstatSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deployApp } from "./deploy-app.mjs";
import { repositoryRoot } from "./lib/workspace.mjs";

const root = mkdtempSync(join(tmpdir(), "eleven-deploy-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGTERM");
  rmSync(root, { recursive: true, force: true });
});

/** Every path under `dir` (links not followed). */
function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() && !entry.isSymbolicLink() ? [path, ...walk(path)] : [path];
  });
}

/** Starts `<folder>/node <folder>/dist/server.js` from the folder itself, with `env` alone (no NODE_PATH, no repository). */
function start(
  folder: string,
  env: Record<string, string>,
): { child: ChildProcess; output: () => string; waitFor: (pattern: RegExp) => Promise<RegExpExecArray> } {
  const child = spawn(join(folder, "node"), [join(folder, "dist", "server.js")], {
    cwd: folder,
    env: { HOME: folder, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  const listeners = new Set<() => void>();
  const take = (chunk: Buffer) => {
    output += chunk.toString("utf8");
    for (const listener of listeners) listener();
  };
  child.stdout?.on("data", take);
  child.stderr?.on("data", take);
  const waitFor = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(output);
        if (match !== null) {
          listeners.delete(check);
          resolve(match);
        }
      };
      child.once("exit", (code) => reject(new Error(`exited ${code}: ${output}`)));
      listeners.add(check);
      check();
    });
  return { child, output: () => output, waitFor };
}

function get(target: { socketPath: string } | { port: number }, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const call = request({ ...target, ...("port" in target ? { host: "127.0.0.1" } : {}), path, headers }, (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => {
        body += chunk.toString("utf8");
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    call.on("error", reject);
    call.end();
  });
}

describe.each(["broker", "sidecar"] as const)("scripts/deploy-app.mjs %s", (app) => {
  const folder = join(root, app);
  beforeAll(() => {
    deployApp(app, folder);
  }, 240_000);

  it("makes a folder that holds everything it runs: no link leads out of it, and no package comes from the repository", () => {
    const paths = walk(folder);
    expect(paths).toContain(join(folder, "node"));
    expect(paths).toContain(join(folder, "dist", "server.js"));
    const outside = paths.filter((path) => lstatSync(path).isSymbolicLink() && !realpathSync(path).startsWith(`${realpathSync(folder)}/`));
    expect(outside).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(folder, "node_modules", "@eleven-integrations", "schema", "package.json"), "utf8")) as { name: string };
    expect(manifest.name).toBe("@eleven-integrations/schema");
    expect(realpathSync(join(folder, "node_modules", "@eleven-integrations", "schema")).startsWith(repositoryRoot)).toBe(false);
    // Dev dependencies stay behind.
    expect(paths.some((path) => path.endsWith("/node_modules/vitest"))).toBe(false);
  });

  it("starts from the folder and answers its probe", async () => {
    if (app === "broker") {
      const broker = start(folder, {
        NODE_ENV: "production",
        PORT: "0",
        BROKER_METRICS_PORT: "0",
        BROKER_PUBLIC_URL: "https://broker.example.test",
        BROKER_STATE_KEY: randomBytes(32).toString("base64url"),
        BROKER_ALLOWED_RETURN_TO: "https://app.example.test/done",
      });
      const [, port] = await broker.waitFor(/Server listening at http:\/\/127\.0\.0\.1:(\d+)/);
      const health = await get({ port: Number(port) }, "/healthz");
      expect(health.status).toBe(200);
      const [, metricsPort] = await broker.waitFor(/"metrics":"http:\/\/127\.0\.0\.1:(\d+)\/metrics"/);
      expect((await get({ port: Number(metricsPort) }, "/healthz")).status).toBe(200);
      expect(broker.output()).not.toContain(repositoryRoot);
    } else {
      const home = join(root, "sidecar-home");
      const sidecar = start(folder, { SIDECAR_HOME: home, SIDECAR_METRICS_PORT: "0" });
      await sidecar.waitFor(/listening on unix:/);
      const [, metricsPort] = await sidecar.waitFor(/metrics: +http:\/\/127\.0\.0\.1:(\d+)\/metrics/);
      expect((await get({ port: Number(metricsPort) }, "/healthz")).status).toBe(200);
      const socketPath = join(home, "sidecar.sock");
      const token = readFileSync(join(home, "caller-token"), "utf8").trim();
      expect((await get({ socketPath }, "/v1/identity")).status).toBe(401);
      const identity = await get({ socketPath }, "/v1/identity", { authorization: `Bearer ${token}` });
      expect(identity.status).toBe(200);
      expect(JSON.parse(identity.body)).toMatchObject({ public_key: expect.any(String) });
    }
  }, 60_000);
});

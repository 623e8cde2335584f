import { lstat, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { createHardenedDispatcher } from "@eleven-integrations/executor";
import Fastify from "fastify";
import { Agent } from "undici";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { registry as embedded } from "../__fixtures__/grant-kit.js";
import { captureLogs, type LogCapture } from "../__fixtures__/log-capture.js";
import { releaseBody, releaseKey, serveDocument, signedRelease, startReleaseServer, strangerKey, type ReleaseServer } from "../__fixtures__/release-kit.js";
import { LiveRegistry } from "./live-registry.js";
import { RegistrySync } from "./registry-sync.js";
import { signRelease } from "@eleven-integrations/grants";

let server: ReleaseServer;
let dispatcher: Agent;
let home: string;
let logs: LogCapture;
let live: LiveRegistry;
let sync: RegistrySync;
const executorDispatcher = createHardenedDispatcher();

beforeAll(async () => {
  server = await startReleaseServer();
  dispatcher = new Agent();
});
afterAll(async () => {
  await server.app.close();
  await dispatcher.destroy();
  await executorDispatcher.destroy();
});
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "sidecar-sync-"));
  server.ifNoneMatch.length = 0;
  server.hits = {};
  ({ live, sync, logs } = makeSync());
});
afterEach(async () => {
  await sync.stop();
  await rm(home, { recursive: true, force: true });
});

function makeSync(url = server.url) {
  const capture = captureLogs();
  const log = Fastify({ logger: { level: "info", stream: capture.stream } }).log;
  const state = new LiveRegistry(embedded, { hash: embedded.hash, sequence: 0, source: "embedded", synced_at: null }, { dispatcher: executorDispatcher });
  const follower = new RegistrySync({
    url,
    keys: [releaseKey.publicKey],
    intervalMs: 3_600_000,
    dispatcher,
    cacheFile: join(home, "registry-release.json"),
    maxBytes: 16 * 1024 * 1024,
    timeoutMs: 10_000,
    live: state,
    log,
  });
  return { live: state, sync: follower, logs: capture };
}

/** The messages logged since `from`, one per line. */
function messages(from = 0): string[] {
  return logs.lines.slice(from).map((line) => (JSON.parse(line) as { msg: string }).msg);
}

/** Accepts release 2 first, as the baseline every refusal must keep. */
async function runRelease2(): Promise<string> {
  const document = signedRelease(2);
  server.route = serveDocument(document);
  expect(await sync.syncOnce()).toMatchObject({ status: "accepted", sequence: 2 });
  return document;
}

/** A refusal must log one line naming the reason and leave release 2 running. */
async function expectRefused(reason: string): Promise<string> {
  const before = live.current();
  const from = logs.lines.length;
  const outcome = await sync.syncOnce();
  expect(outcome).toMatchObject({ status: "refused", reason });
  expect(live.current()).toBe(before);
  expect(live.current().info.sequence).toBe(2);
  const logged = messages(from);
  expect(logged).toHaveLength(1);
  expect(logged[0]).toMatch(new RegExp(`^registry release refused \\(${reason}\\): .*; still running release 2 \\(registry [0-9a-f]{12}\\)$`));
  return logged[0] as string;
}

describe("a sidecar following signed releases", () => {
  it("accepts a newer release signed by a trusted key, caches it 0600, then revalidates with If-None-Match", async () => {
    const document = await runRelease2();
    const { info, registry } = live.current();
    expect(info).toMatchObject({ sequence: 2, source: "synced", hash: registry.hash });
    expect(Date.parse(info.synced_at as string)).toBeGreaterThan(Date.now() - 60_000);
    expect(registry.get("github")?.name).toBe("GitHub r2");
    const cache = join(home, "registry-release.json");
    expect(await readFile(cache, "utf8")).toBe(document);
    expect((await lstat(cache)).mode & 0o777).toBe(0o600);
    expect(messages().at(-1)).toMatch(
      /^registry release 2 accepted from http:\/\/127\.0\.0\.1:\d+\/registry\.signed \(registry [0-9a-f]{12}, \d+ manifests\); was the embedded registry/,
    );

    expect(await sync.syncOnce()).toEqual({ status: "unchanged" });
    expect(server.ifNoneMatch).toEqual([undefined, expect.stringMatching(/^"[0-9a-f]{64}"$/)]);

    // Release 3: the manifests it did not change are the very objects release 2 loaded.
    server.route = serveDocument(signedRelease(3));
    expect(await sync.syncOnce()).toMatchObject({ status: "accepted", sequence: 3 });
    expect(live.current().registry.get("slack")).toBe(registry.get("slack"));
    expect(live.current().registry.get("github")).not.toBe(registry.get("github"));
  });

  it("refuses a release signed by an unknown key", async () => {
    await runRelease2();
    server.route = serveDocument(signedRelease(3, [strangerKey]));
    expect(await expectRefused("untrusted_key")).toContain("no signature by a trusted release key");
  });

  it("refuses a release with one byte changed", async () => {
    await runRelease2();
    const bytes = Buffer.from(signedRelease(3));
    const at = bytes.indexOf("GitHub r3");
    bytes[at] = "H".charCodeAt(0);
    server.route = serveDocument(bytes);
    await expectRefused("bad_signature");
  });

  it("refuses a rollback: a lower sequence, or the same sequence with another registry", async () => {
    await runRelease2();
    server.route = serveDocument(signedRelease(1));
    expect(await expectRefused("rollback")).toContain("release 1 (registry");
    const sameSequence = signRelease(
      releaseBody(2, (m) => (m.id === "slack" ? { ...m, name: "Slack again" } : m)),
      [releaseKey],
    );
    server.route = serveDocument(sameSequence);
    expect(await expectRefused("rollback")).toContain("is not above the running release 2");
  });

  it("refuses a signed release whose manifest fails validation", async () => {
    await runRelease2();
    const body = releaseBody(3);
    const github = body.integrations.find((manifest) => (manifest as { id: string }).id === "github") as { ops: unknown[] };
    github.ops = [];
    server.route = serveDocument(signRelease(body, [releaseKey]));
    expect(await expectRefused("invalid_manifests")).toMatch(/release 3 does not load: github\.json: ops: /);
  });

  it("refuses a truncated release", async () => {
    await runRelease2();
    const document = signedRelease(3);
    server.route = serveDocument(document.slice(0, Math.floor(document.length / 2)));
    expect(await expectRefused("malformed")).toContain("truncated");
  });

  it("refuses a 50 MB release, by its content-length or as it streams", async () => {
    await runRelease2();
    const size = 50 * 1024 * 1024;
    server.route = (_request, reply) =>
      reply
        .header("content-type", "application/json")
        .header("content-length", String(size))
        .send(Readable.from(chunks(size)));
    expect(await expectRefused("too_large")).toContain(`${size} bytes (content-length)`);
    server.route = (_request, reply) => reply.header("content-type", "application/json").send(Readable.from(chunks(size)));
    expect(await expectRefused("too_large")).toContain("over the limit of 16777216 bytes");
  });

  it("refuses a release served with a redirect, and never follows it", async () => {
    await runRelease2();
    server.route = (_request, reply) => reply.redirect("/elsewhere/registry.signed", 302);
    expect(await expectRefused("redirect")).toContain("answered 302");
    expect(server.hits["/elsewhere/registry.signed"]).toBeUndefined();
  });

  it("keeps running release 2 while the broker is down, and says why on each attempt", async () => {
    await runRelease2();
    const down = Fastify();
    const address = await down.listen({ host: "127.0.0.1", port: 0 });
    await down.close();
    await sync.stop();
    ({ live, sync, logs } = makeSync(`${address}/registry.signed`));
    await sync.loadCache();
    expect(live.current().info).toMatchObject({ sequence: 2, source: "synced" });
    expect(await sync.syncOnce()).toMatchObject({ status: "refused", reason: "unreachable" });
    expect(messages().at(-1)).toMatch(
      /^registry release refused \(unreachable\): cannot reach http:\/\/127\.0\.0\.1:\d+\/registry\.signed: ECONNREFUSED; still running release 2/,
    );
    expect(live.current().info.sequence).toBe(2);
  });

  it("ignores a cached release that fails verification, and runs the embedded registry", async () => {
    await runRelease2();
    const cache = join(home, "registry-release.json");
    await writeFile(cache, (await readFile(cache, "utf8")).replace("GitHub r2", "GitHub r9"), { mode: 0o600 });
    await sync.stop();
    ({ live, sync, logs } = makeSync());
    await sync.loadCache();
    expect(live.current().info).toMatchObject({ source: "embedded", sequence: 0, hash: embedded.hash });
    expect(messages().at(-1)).toMatch(/^cached registry release .*registry-release\.json ignored \(bad_signature\): .*; running the embedded registry/);
  });
});

function* chunks(total: number): Generator<Buffer> {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  for (let sent = 0; sent < total; sent += chunk.length) yield chunk;
}

// Review finding 7, as the attack: a sidecar with no cache file took its embedded
// registry as sequence 0 and accepted any older signed release a broker (or whoever
// answers at its registryUrl) served. Now the embedded registry runs at the sequence
// it was released as, a high-water mark kept apart from the cache holds the newest
// release ever run, and registryUrl is https unless on loopback.
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHardenedDispatcher } from "@eleven-integrations/executor";
import { signRelease } from "@eleven-integrations/grants";
import { signedRegistryFile } from "@eleven-integrations/manifests";
import Fastify from "fastify";
import { Agent } from "undici";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bot, registry as embedded } from "../__fixtures__/grant-kit.js";
import { captureLogs } from "../__fixtures__/log-capture.js";
import { httpCall } from "../__fixtures__/http-call.js";
import { startSidecar, type RunningTcpSidecar } from "../start/start-server.js";
import { releaseBody, releaseKey, serveDocument, signedRelease, startReleaseServer, type ReleaseServer } from "../__fixtures__/release-kit.js";
import { embeddedReleaseSequence, registryFloor } from "./embedded-sequence.js";
import { HighWaterMark } from "./high-water-mark.js";
import { LiveRegistry } from "./live-registry.js";
import { RegistrySync } from "./registry-sync.js";
import { registrySyncSettings } from "./registry-sync-config.js";

let server: ReleaseServer;
let dispatcher: Agent;
let home: string;
const executorDispatcher = createHardenedDispatcher();
const syncs: RegistrySync[] = [];

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
  home = await mkdtemp(join(tmpdir(), "sidecar-floor-"));
});
afterEach(async () => {
  await Promise.all(syncs.splice(0).map((sync) => sync.stop()));
  await rm(home, { recursive: true, force: true });
});

/** A sidecar's registry follower on a fresh start: the embedded registry at `sequence`, the cache and mark in `home`, releases below `floor` refused. */
async function freshStart(sequence: number, floor?: number) {
  const live = new LiveRegistry(embedded, { hash: embedded.hash, sequence, source: "embedded", synced_at: null }, { dispatcher: executorDispatcher });
  const sync = new RegistrySync({
    url: server.url,
    keys: [releaseKey.publicKey],
    intervalMs: 3_600_000,
    dispatcher,
    cacheFile: join(home, "registry-release.json"),
    highWater: new HighWaterMark(join(home, "registry-high-water")),
    floor,
    maxBytes: 16 * 1024 * 1024,
    timeoutMs: 10_000,
    live,
    log: Fastify({ logger: { level: "info", stream: captureLogs().stream } }).log,
  });
  syncs.push(sync);
  await sync.loadCache();
  return { live, sync };
}

describe("the embedded registry's release sequence", () => {
  it("is the sequence of the signed release shipped beside it, when that release is the embedded registry", async () => {
    const shipped = join(home, "registry.signed.json");
    await writeFile(shipped, signRelease(releaseBody(5), [releaseKey]));
    expect(embeddedReleaseSequence(embedded, shipped)).toBe(5);
    // A signed release of another registry, a missing or damaged file: unsigned build, 0.
    await writeFile(shipped, signedRelease(7));
    expect(embeddedReleaseSequence(embedded, shipped)).toBe(0);
    expect(embeddedReleaseSequence(embedded, join(home, "absent.json"))).toBe(0);
    await writeFile(shipped, "{ not json");
    expect(embeddedReleaseSequence(embedded, shipped)).toBe(0);
    expect(embeddedReleaseSequence(embedded, null)).toBe(0);
  });

  it("refuses an older signed release on a fresh home (no cache file) as a rollback", async () => {
    const shipped = join(home, "registry.signed.json");
    await writeFile(shipped, signRelease(releaseBody(5), [releaseKey]));
    const { live, sync } = await freshStart(embeddedReleaseSequence(embedded, shipped));
    server.route = serveDocument(signedRelease(3));
    const outcome = await sync.syncOnce();
    expect(outcome).toMatchObject({ status: "refused", reason: "rollback" });
    expect(live.current().info).toMatchObject({ source: "embedded", sequence: 5, hash: embedded.hash });
    server.route = serveDocument(signedRelease(6));
    expect(await sync.syncOnce()).toMatchObject({ status: "accepted", sequence: 6 });
  });
});

describe("an unsigned build's floor (third review, finding 11)", () => {
  // The attack: the manifests changed after release 5 was signed, so the build's embedded registry is
  // not release 5 (an unsigned build, embedded sequence 0), yet it is newer than release 5. A fresh
  // sidecar from it took release 3, served by a broker (or whoever answers at registryUrl), as newer.
  it("refuses a release at or below the signed release the build ships beside, on a fresh home", async () => {
    const shipped = join(home, "registry.signed.json");
    await writeFile(shipped, signedRelease(5));
    expect(embeddedReleaseSequence(embedded, shipped)).toBe(0);
    const floor = registryFloor(embedded, shipped);
    expect(floor).toBe(6);
    const { live, sync } = await freshStart(embeddedReleaseSequence(embedded, shipped), floor);
    for (const older of [3, 5]) {
      server.route = serveDocument(signedRelease(older));
      expect(await sync.syncOnce()).toMatchObject({ status: "refused", reason: "rollback" });
      expect(live.current().info).toMatchObject({ source: "embedded", hash: embedded.hash });
    }
    server.route = serveDocument(signedRelease(6));
    expect(await sync.syncOnce()).toMatchObject({ status: "accepted", sequence: 6 });
  });

  it("refuses a cached release below the floor too", async () => {
    const first = await freshStart(0);
    server.route = serveDocument(signedRelease(4));
    expect(await first.sync.syncOnce()).toMatchObject({ status: "accepted", sequence: 4 });
    await first.sync.stop();
    // The same home, a newer unsigned build (its floor 7): the cache holds release 4.
    const upgraded = await freshStart(0, 7);
    expect(upgraded.live.current().info.source).toBe("embedded");
  });

  it("an unsigned build that ships no release takes the operator's registryMinSequence as its floor", async () => {
    expect(registryFloor(embedded, null)).toBe(0);
    expect(registryFloor(embedded, null, 8)).toBe(8);
    // The higher of the two when both are known; a signed build's floor is above its own sequence.
    const shipped = join(home, "registry.signed.json");
    await writeFile(shipped, signedRelease(5));
    expect(registryFloor(embedded, shipped, 3)).toBe(6);
    await writeFile(shipped, signRelease(releaseBody(5), [releaseKey]));
    expect(registryFloor(embedded, shipped)).toBe(6);
    const { sync } = await freshStart(0, registryFloor(embedded, null, 8));
    server.route = serveDocument(signedRelease(7));
    expect(await sync.syncOnce()).toMatchObject({ status: "refused", reason: "rollback" });
    server.route = serveDocument(signedRelease(8));
    expect(await sync.syncOnce()).toMatchObject({ status: "accepted", sequence: 8 });
  });

  it("startSidecar holds a fresh home to registryMinSequence from its first sync", async () => {
    // Above the build's own floor, whatever the manifests package ships.
    const base = registryFloor(embedded, signedRegistryFile);
    server.route = serveDocument(signedRelease(base + 7));
    const start = (registryMinSequence?: number) =>
      startSidecar({
        home: join(home, `sidecar-${registryMinSequence ?? "none"}`),
        port: 0,
        registryUrl: server.url,
        registryKeys: [releaseKey.publicKey],
        registryDispatcher: dispatcher,
        ...(registryMinSequence === undefined ? {} : { registryMinSequence }),
      });
    const sequenceOf = async (sidecar: RunningTcpSidecar) => {
      const token = (await readFile(sidecar.callerTokenFile, "utf8")).trim();
      const answer = await httpCall({ port: sidecar.port, path: "/v1/identity", headers: { authorization: `Bearer ${token}` } });
      return (answer.json() as { registry: { source: string; sequence: number } }).registry;
    };
    const floored = await start(base + 8);
    try {
      expect(await sequenceOf(floored)).toMatchObject({ source: "embedded" });
    } finally {
      await floored.close();
    }
    // The same release on a home with no operator's floor runs.
    const open = await start();
    try {
      expect(await sequenceOf(open)).toMatchObject({ source: "synced", sequence: base + 7 });
    } finally {
      await open.close();
    }
    await expect(start(-1)).rejects.toThrow(/registryMinSequence/);
  });

  it("buildApp takes registryMinSequence, and refuses one that is not a whole number", () => {
    const base = { registry: embedded, botKeys: bot, trustedMembers: [], callerToken: "t", auditFile: join(home, "audit.log") };
    expect(registrySyncSettings({ ...base, registryUrl: server.url, registryKeys: [releaseKey.publicKey], registryMinSequence: 8 })?.floor).toBe(8);
    expect(() => registrySyncSettings({ ...base, registryUrl: server.url, registryKeys: [releaseKey.publicKey], registryMinSequence: -1 })).toThrow(
      /registryMinSequence/,
    );
  });
});

describe("the high-water mark, kept apart from the cache", () => {
  it("refuses an older release after the cache file is deleted, and still accepts the newest one again", async () => {
    const first = await freshStart(0);
    const release6 = signedRelease(6);
    server.route = serveDocument(release6);
    expect(await first.sync.syncOnce()).toMatchObject({ status: "accepted", sequence: 6 });
    expect((await stat(join(home, "registry-high-water"))).mode & 0o777).toBe(0o600);
    await first.sync.stop();

    // The attack: the cache is deleted (or spoiled), the sidecar restarts on its embedded registry, an old release is served.
    await rm(join(home, "registry-release.json"));
    const restarted = await freshStart(0);
    server.route = serveDocument(signedRelease(4));
    expect(await restarted.sync.syncOnce()).toMatchObject({ status: "refused", reason: "rollback" });
    expect(restarted.live.current().info.source).toBe("embedded");
    // Another registry signed at the mark's own sequence is refused too; the release that set the mark runs again.
    server.route = serveDocument(
      signRelease(
        releaseBody(6, (m) => (m.id === "github" ? { ...m, name: "GitHub other" } : m)),
        [releaseKey],
      ),
    );
    expect(await restarted.sync.syncOnce()).toMatchObject({ status: "refused", reason: "rollback" });
    server.route = serveDocument(release6);
    expect(await restarted.sync.syncOnce()).toMatchObject({ status: "accepted", sequence: 6 });
  });
});

describe("registryUrl", () => {
  const base = {
    registry: embedded,
    botKeys: bot,
    trustedMembers: [],
    callerToken: "x".repeat(32),
    auditFile: "/dev/null",
    registryKeys: [releaseKey.publicKey],
  };

  it("must be https off loopback: plain http elsewhere is refused at start", () => {
    expect(() => registrySyncSettings({ ...base, registryUrl: "http://broker.example/registry.signed" })).toThrow(/https unless it is on loopback/);
    expect(() => registrySyncSettings({ ...base, registryUrl: "http://10.0.0.5:8080/registry.signed" })).toThrow(
      expect.objectContaining({ code: "invalid_setting" }),
    );
    expect(registrySyncSettings({ ...base, registryUrl: "https://broker.example/registry.signed" })?.url).toBe("https://broker.example/registry.signed");
    for (const url of ["http://127.0.0.1:8080/registry.signed", "http://[::1]:8080/registry.signed", "http://localhost:8080/registry.signed"]) {
      expect(registrySyncSettings({ ...base, registryUrl: url })?.url).toBe(url);
    }
  });
});

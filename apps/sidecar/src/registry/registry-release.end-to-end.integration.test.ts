// A real broker and two real sidecars over loopback: the broker publishes signed
// releases, both sidecars follow them, refuse a tampered release and a rollback, and a
// sidecar restarted while the broker is down still runs the last good release from its cache.
import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { buildApp as buildBroker } from "@eleven-integrations/broker";
import { signRelease } from "@eleven-integrations/grants";
import { loadRegistryFromRelease } from "@eleven-integrations/loader";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, expect, it } from "vitest";
import { grantFor, member, temporaryDirectory } from "../__fixtures__/grant-kit.js";
import { httpCall } from "../__fixtures__/http-call.js";
import { captureLogs, type LogCapture } from "../__fixtures__/log-capture.js";
import { releaseBody, releaseKey } from "../__fixtures__/release-kit.js";
import { startSidecar, type RunningSidecar } from "../start/start-server.js";

const SYNC_MS = 1_000;
type Json = Record<string, unknown>;

interface Follower {
  home: string;
  sidecar: RunningSidecar;
  logs: LogCapture;
  token: string;
}

let broker: FastifyInstance | undefined;
let brokerPort = 0;
const followers: Follower[] = [];

/** Release `sequence`: GitHub gains the op `repos.list_r<sequence>`, so each release is another registry with another op. */
function release(sequence: number): string {
  return signRelease(
    releaseBody(sequence, (manifest) => {
      if (manifest.id !== "github") return manifest;
      const ops = manifest.ops as Json[];
      return { ...manifest, ops: [...ops, { ...(ops[0] as Json), id: `repos.list_r${sequence}`, label: `List repositories (release ${sequence})` }] };
    }),
    [releaseKey],
  );
}

/** (Re)starts the broker on the same loopback port, serving `document` at /registry.signed. */
async function publish(document: string): Promise<void> {
  await broker?.close();
  broker = buildBroker({ release: document, publicUrl: "https://broker.example.test", stateKey: randomBytes(32).toString("base64url"), allowedReturnTo: [] });
  await broker.listen({ host: "127.0.0.1", port: brokerPort });
  brokerPort = (broker.server.address() as { port: number }).port;
}

async function startFollower(home?: string): Promise<Follower> {
  const folder = home ?? (await temporaryDirectory("sidecar-follow-"));
  await writeFile(join(folder, "trusted-members.json"), JSON.stringify([member.publicKey]));
  const logs = captureLogs();
  const sidecar = await startSidecar({
    home: folder,
    port: 0,
    logger: { level: "info", stream: logs.stream },
    registryUrl: `http://127.0.0.1:${brokerPort}/registry.signed`,
    registryKeys: [releaseKey.publicKey],
    registrySyncMs: SYNC_MS,
  });
  const token = (await readFile(sidecar.callerTokenFile, "utf8")).trim();
  return { home: folder, sidecar, logs, token };
}

async function call(follower: Follower, path: string, body?: unknown): Promise<Json> {
  const answer = await httpCall({
    port: follower.sidecar.port as number,
    method: body === undefined ? "GET" : "POST",
    path,
    headers: { authorization: `Bearer ${follower.token}` },
    body,
  });
  return answer.json() as Json;
}

async function registryOf(follower: Follower): Promise<{ hash: string; sequence: number; source: string; synced_at: string | null }> {
  return (await call(follower, "/v1/identity")).registry as never;
}

/** Milliseconds until `follower` runs release `sequence`. */
async function timeToFollow(follower: Follower, sequence: number, started: number): Promise<number> {
  while (performance.now() - started < 20 * SYNC_MS) {
    if ((await registryOf(follower)).sequence === sequence) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`release ${sequence} never reached the sidecar`);
}

function refusals(follower: Follower): string[] {
  return follower.logs.lines.map((line) => (JSON.parse(line) as { msg?: string }).msg ?? "").filter((msg) => msg.startsWith("registry release refused"));
}

beforeAll(async () => {
  await publish(release(1));
  followers.push(await startFollower(), await startFollower());
});

afterAll(async () => {
  for (const follower of followers) await follower.sidecar.close();
  await broker?.close();
});

it("two sidecars follow the broker's releases, refuse a tampered one and a rollback, and restart from their cache without the broker", async () => {
  for (const follower of followers) expect(await registryOf(follower)).toMatchObject({ sequence: 1, source: "synced" });

  // Release 2: both sidecars run it within one interval (plus the time to fetch and check it).
  const second = release(2);
  await publish(second);
  const published = performance.now();
  const delays = await Promise.all(followers.map((follower) => timeToFollow(follower, 2, published)));
  for (const delay of delays) expect(delay).toBeLessThan(SYNC_MS + 1_000);
  console.log(`sidecars followed release 2 after ${delays.map((delay) => `${Math.round(delay)} ms`).join(" and ")} (sync interval ${SYNC_MS} ms)`);
  const hash2 = loadRegistryFromRelease(JSON.parse(second).registry).hash;
  for (const follower of followers) expect((await registryOf(follower)).hash).toBe(hash2);

  // A tampered release 3 (its signature changed) and a rollback to release 1: both keep release 2.
  const tampered = JSON.parse(release(3));
  const signature: string = tampered.signatures[0].signature;
  tampered.signatures[0].signature = (signature.startsWith("A") ? "B" : "A") + signature.slice(1);
  await publish(JSON.stringify(tampered));
  await new Promise((resolve) => setTimeout(resolve, 2.5 * SYNC_MS));
  await publish(release(1));
  await new Promise((resolve) => setTimeout(resolve, 2.5 * SYNC_MS));
  for (const follower of followers) {
    expect(await registryOf(follower)).toMatchObject({ sequence: 2, hash: hash2, source: "synced" });
    const refused = refusals(follower);
    expect(refused.some((line) => /^registry release refused \(bad_signature\): .*; still running release 2 /.test(line))).toBe(true);
    expect(refused.some((line) => /^registry release refused \(rollback\): release 1 .*; still running release 2 /.test(line))).toBe(true);
    for (const line of refused) console.log(`sidecar log: ${line}`);
  }

  // The broker stops; a sidecar restarts: it runs release 2 from its cache, new op included.
  await broker?.close();
  broker = undefined;
  const [first] = followers.splice(0, 1) as [Follower];
  await first.sidecar.close();
  const restarted = await startFollower(first.home);
  followers.push(restarted);
  expect(await registryOf(restarted)).toMatchObject({ sequence: 2, hash: hash2, source: "synced" });
  const running = loadRegistryFromRelease(JSON.parse(second).registry);
  const grant = grantFor({ botPublicKey: restarted.sidecar.publicKey, manifestHash: running.manifestHash("github") as string });
  const palette = await call(restarted, "/v1/ops", { grant });
  expect((palette.ops as { id: string }[]).map((op) => op.id)).toContain("repos.list_r2");
  expect(refusals(restarted).some((line) => line.startsWith("registry release refused (unreachable)"))).toBe(true);
}, 60_000);

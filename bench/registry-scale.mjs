// The registry at 10,000 manifests (the shipped ones and generated copies under other ids):
// the cold load against JSON.parse of the same bytes (CPU time, both in this process), its
// peak RSS against the bytes (a fresh child process that loads the files once), and a broker
// started from a signed release of them answering GET /registry and a search, with the size of
// each answer. Goals (DESIGN.md, "Cost as the work grows"): the load at most 5x JSON.parse,
// the peak at most 3x the bytes.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildApp } from "@eleven-integrations/broker";
import { generateReleaseKeys, ready, signRelease } from "@eleven-integrations/grants";
import { loadRegistry } from "@eleven-integrations/loader";
import { manifestTexts } from "./loader.mjs";
import { compare, fmt } from "./measure.mjs";

const TOTAL = Number(process.env.BENCH_REGISTRY_TOTAL ?? 10_000);
const LOAD_GOAL = 5;
const RSS_GOAL = 3;

/** Child: read the files in `dir`, then load them once; report the peak RSS the load reached above what the texts took. */
function memoryChild(dir) {
  const texts = readdirSync(dir).map((file) => ({ file, text: readFileSync(join(dir, file), "utf8") }));
  globalThis.gc();
  const before = process.memoryUsage().rss;
  const registry = loadRegistry(texts);
  const peak = process.resourceUsage().maxRSS * 1024;
  process.stdout.write(JSON.stringify({ loaded: registry.integrations().length, peakGrowth: peak - before, peak }));
}

export async function run() {
  await ready();
  const texts = manifestTexts(TOTAL);
  const bytes = texts.reduce((sum, { text }) => sum + Buffer.byteLength(text), 0);
  const load = await compare(
    () => loadRegistry(texts.map(({ file, text }) => ({ file, text: Buffer.from(text).toString("utf8") }))),
    () => {
      for (const { text } of texts) JSON.parse(Buffer.from(text).toString("utf8"));
    },
    { rounds: 3, warmup: 1, clock: "cpu" },
  );
  console.log(
    `cold load of ${TOTAL} manifests (${fmt(bytes / 1e6, 1)} MB): ${fmt(load.measuredMs, 0)} ms CPU against JSON.parse's ${fmt(load.floorMs, 0)} ms, ${fmt(load.ratio, 2)}x (goal at most ${LOAD_GOAL}x) ${load.ratio <= LOAD_GOAL ? "ok" : "OVER"}`,
  );

  const dir = mkdtempSync(join(tmpdir(), "bench-registry-"));
  try {
    for (const { file, text } of texts) writeFileSync(join(dir, file), text);
    const child = JSON.parse(
      execFileSync(process.execPath, ["--expose-gc", fileURLToPath(import.meta.url), "--memory-child", dir], { encoding: "utf8", maxBuffer: 1 << 20 }),
    );
    const ratio = child.peakGrowth / bytes;
    console.log(
      `peak RSS the load adds: ${fmt(child.peakGrowth / 1e6, 0)} MB for ${fmt(bytes / 1e6, 1)} MB of files, ${fmt(ratio, 2)}x (goal at most ${RSS_GOAL}x) ${ratio <= RSS_GOAL ? "ok" : "OVER"}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const registry = loadRegistry(texts);
  const key = generateReleaseKeys();
  const integrations = registry.catalog().integrations.map(({ hash: _hash, ...manifest }) => manifest);
  const release = Buffer.from(signRelease({ schema: 1, hash: registry.hash, sequence: 1, previous: null, integrations }, [key]), "utf8");
  const app = buildApp({
    publicUrl: "https://broker.example.com",
    stateKey: randomBytes(32).toString("base64url"),
    allowedReturnTo: [],
    logger: false,
    release,
    releaseKeys: [key.publicKey],
  });
  try {
    await app.ready();
    const catalog = await app.inject({ method: "GET", url: "/registry" });
    const started = process.cpuUsage();
    const search = await app.inject({ method: "GET", url: "/registry/search?q=open%20a%20freshdesk%20ticket" });
    const searchMs = (process.cpuUsage(started).user + process.cpuUsage(started).system) / 1000;
    if (catalog.statusCode !== 200 || search.statusCode !== 200) throw new Error(`the broker answered ${catalog.statusCode} and ${search.statusCode}`);
    console.log(
      `broker at ${TOTAL} manifests: GET /registry ${catalog.statusCode}, ${fmt(catalog.rawPayload.length / 1e6, 2)} MB; a search ${search.statusCode}, ${fmt(search.rawPayload.length / 1e3, 1)} KB, ${JSON.parse(search.body).results.length} results, ${fmt(searchMs, 1)} ms CPU`,
    );
  } finally {
    await app.close();
  }
}

if (process.argv[2] === "--memory-child") memoryChild(process.argv[3]);
else if (import.meta.url === `file://${process.argv[1]}`) await run();

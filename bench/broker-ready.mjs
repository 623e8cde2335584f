// The broker ready at 1,009 manifests, from a signed release, against a cold load of the same
// manifests' files measured in the same run (CPU time, alternating). "Ready" is what the broker
// builds at start, through its own buildApp and app.ready() from its dist: the release read once
// and its manifests loaded, their hash checked against the release, the signature verified with
// releaseKeys, the served catalog and its entries, and the search index. Goal (DESIGN.md, "Fast
// at the limit"): at most 2x. Compression is made by the first request that asks for an encoding
// and each integration's page by its first request. The first search is printed on its own line,
// and ready plus the first search together, measured as one, so nothing the goal names is left
// out of the number.
import { randomBytes } from "node:crypto";
import { buildApp } from "@eleven-integrations/broker";
import { generateReleaseKeys, ready, signRelease } from "@eleven-integrations/grants";
import { loadRegistry } from "@eleven-integrations/loader";
import { compare, fmt } from "./measure.mjs";
import { manifestTexts } from "./loader.mjs";

const TOTAL = 1009;
const GOAL = 2;

export async function run() {
  await ready();
  const texts = manifestTexts(TOTAL);
  const registry = loadRegistry(texts);
  const key = generateReleaseKeys();
  const integrations = registry.catalog().integrations.map(({ hash: _hash, ...manifest }) => manifest);
  const release = Buffer.from(signRelease({ schema: 1, hash: registry.hash, sequence: 1, previous: null, integrations }, [key]), "utf8");
  const settings = { publicUrl: "https://broker.example.com", stateKey: randomBytes(32).toString("base64url"), allowedReturnTo: [], logger: false };

  let app;
  const startBroker = async () => {
    app = buildApp({ ...settings, release, releaseKeys: [key.publicKey] });
    await app.ready();
  };
  const firstSearch = async () => {
    const answer = await app.inject({ method: "GET", url: "/registry/search?q=create%20issue" });
    if (answer.statusCode !== 200 || JSON.parse(answer.body).results.length === 0) throw new Error(`search answered ${answer.statusCode}`);
  };
  const cold = () => void loadRegistry(texts);
  const result = await compare(startBroker, cold, { rounds: 5, warmup: 1, clock: "cpu" });
  const search = await compare(firstSearch, cold, { rounds: 1, warmup: 0, clock: "cpu" });
  const readyAndSearch = async () => {
    await startBroker();
    await firstSearch();
  };
  const combined = await compare(readyAndSearch, cold, { rounds: 5, warmup: 0, clock: "cpu" });
  // Each side after a full collection: the cold load then does not pay for moving the app the ready kept (see measure.mjs).
  const settled = await compare(startBroker, cold, { rounds: 5, warmup: 0, clock: "cpu", settle: true });
  await app.close();
  console.log(`signed release of ${TOTAL} manifests: ${fmt(release.length / 1024 / 1024, 1)} MiB`);
  console.log(
    `broker ready (buildApp + ready: release read once and loaded, hash checked, signature verified, catalog and search index built; compression and pages on first demand): ${fmt(result.measuredMs, 0)} ms CPU`,
  );
  console.log(`cold load of the same manifests' files: ${fmt(result.floorMs, 0)} ms CPU`);
  console.log(`broker ready ratio: ${fmt(result.ratio, 2)}x the cold load (goal at most ${GOAL}x) ${result.ratio <= GOAL ? "ok" : "OVER"}`);
  console.log(
    `broker ready ratio, each side after a full collection: ${fmt(settled.ratio, 2)}x (${fmt(settled.measuredMs, 0)} against ${fmt(settled.floorMs, 0)} ms CPU)`,
  );
  console.log(`its first search: ${fmt(search.measuredMs, 0)} ms CPU, ${fmt(search.ratio, 2)}x the cold load`);
  console.log(
    `broker ready and its first search, measured together: ${fmt(combined.measuredMs, 0)} ms CPU against ${fmt(combined.floorMs, 0)} ms, ${fmt(combined.ratio, 2)}x the cold load (goal at most ${GOAL}x) ${combined.ratio <= GOAL ? "ok" : "OVER"}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await run();

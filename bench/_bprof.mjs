import { randomBytes } from "node:crypto";
import { buildApp } from "@eleven-integrations/broker";
import { generateReleaseKeys, ready, signRelease } from "@eleven-integrations/grants";
import { loadRegistry } from "@eleven-integrations/loader";
import { manifestTexts } from "./loader.mjs";
await ready();
const registry = loadRegistry(manifestTexts(1009));
const key = generateReleaseKeys();
const integrations = registry.catalog().integrations.map(({ hash: _hash, ...manifest }) => manifest);
const release = Buffer.from(signRelease({ schema: 1, hash: registry.hash, sequence: 1, previous: null, integrations }, [key]), "utf8");
const { Session } = await import("node:inspector/promises");
const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.start");
const app = buildApp({
  publicUrl: "https://broker.example.com",
  stateKey: randomBytes(32).toString("base64url"),
  allowedReturnTo: [],
  logger: false,
  release,
  releaseKeys: [key.publicKey],
});
await app.ready();

const { profile } = await session.post("Profiler.stop");
(await import("node:fs")).writeFileSync("/tmp/perf/broker.cpuprofile", JSON.stringify(profile));
await app.close();

// The broker's GET /registry/search over the shipped manifests plus 1,000 generated ones:
// p50 and p99 per query, against a bare GET /registry of the same instance (the whole catalog,
// identity encoding), measured in the same run, sequential requests over one loopback connection.
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import { buildApp } from "@eleven-integrations/broker";
import { loadRegistry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";
import { Pool } from "undici";
import { fmt } from "./measure.mjs";

const GENERATED = 1000;
const REQUESTS = 200;
const WARMUP = 20;
const QUERIES = [
  "github",
  "create issue github",
  "post slack message",
  "stirpe invoices",
  "register domain",
  "calendar event",
  "add task",
  "crm contact",
  "ticket",
  "export report",
  "list",
  "zzzz",
];

const NOUNS = [
  "contact",
  "deal",
  "ticket",
  "invoice",
  "report",
  "project",
  "task",
  "file",
  "folder",
  "message",
  "channel",
  "order",
  "product",
  "customer",
  "event",
  "note",
  "board",
  "card",
  "record",
  "lead",
];
const VERBS = [
  ["list", "List"],
  ["get", "Read one"],
  ["search", "Search"],
  ["export", "Export"],
];
const CATEGORIES = ["crm", "support", "finance", "storage", "marketing", "analytics", "sales", "design", "hr", "devops", "communication", "productivity"];

/** A valid manifest with four reads and one write, its words drawn from a small vocabulary so queries hit many of them. */
function generated(index) {
  const id = `gen-${String(index).padStart(4, "0")}`;
  const noun = NOUNS[index % NOUNS.length];
  const other = NOUNS[(index * 7 + 3) % NOUNS.length];
  const ops = VERBS.map(([verb, label]) => ({
    id: `${noun}s.${verb}`,
    label: `${label} ${noun}s`,
    access: "read",
    method: "GET",
    path: `/${noun}s/${verb}`,
  }));
  ops.push({
    id: `${other}s.create`,
    label: `Create a ${other}`,
    access: "write",
    method: "POST",
    path: `/${other}s`,
    args: { name: { required: true, description: `The ${other}'s name`, max_length: 100 } },
    body_json: { name: "{name}" },
    confirm: `Create ${other} “{name}” in Service ${index}`,
  });
  return {
    file: `${id}.json`,
    json: {
      schema: 1,
      id,
      name: `Service ${index} ${noun}`,
      category: CATEGORIES[index % CATEGORIES.length],
      auth: { kind: "pat", base: `https://api.service${index}.example.com`, authorization: "Bearer", pat_help: `https://service${index}.example.com/tokens` },
      ops,
    },
  };
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function timings(pool, path) {
  const times = [];
  for (let i = 0; i < WARMUP + REQUESTS; i += 1) {
    const start = performance.now();
    const response = await pool.request({ method: "GET", path, headers: { "accept-encoding": "identity" } });
    await response.body.arrayBuffer();
    if (response.statusCode !== 200) throw new Error(`${path}: ${response.statusCode}`);
    if (i >= WARMUP) times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

export async function run() {
  const files = [...manifestFiles, ...Array.from({ length: GENERATED }, (_, index) => generated(index))];
  const registry = loadRegistry(files);
  const started = performance.now();
  const broker = buildApp({
    registry,
    publicUrl: "https://broker.example.com",
    stateKey: randomBytes(32).toString("base64url"),
    allowedReturnTo: [],
    logger: false,
  });
  await broker.ready();
  const buildMs = performance.now() - started;
  const origin = await broker.listen({ host: "127.0.0.1", port: 0 });
  const pool = new Pool(origin, { connections: 1 });
  try {
    const registryBytes = (await broker.inject({ method: "GET", url: "/registry" })).rawPayload.length;
    console.log(
      `${files.length} manifests (${manifestFiles.length} shipped + ${GENERATED} generated), ${registry.integrations().reduce((n, m) => n + m.ops.length, 0)} ops; app built with its search index in ${fmt(buildMs, 0)} ms; GET /registry is ${fmt(registryBytes / 1024, 0)} KiB`,
    );
    const floor = await timings(pool, "/registry");
    console.log(`floor  GET /registry                     p50 ${fmt(floor.p50)} ms  p99 ${fmt(floor.p99)} ms`);
    for (const query of QUERIES) {
      const result = await timings(pool, `/registry/search?q=${encodeURIComponent(query)}`);
      console.log(
        `search ${JSON.stringify(query).padEnd(28)} p50 ${fmt(result.p50)} ms  p99 ${fmt(result.p99)} ms  ratio p50 ${fmt(result.p50 / floor.p50)}x  p99 ${fmt(result.p99 / floor.p99)}x`,
      );
    }
    const again = await timings(pool, "/registry");
    console.log(`floor  GET /registry (again)             p50 ${fmt(again.p50)} ms  p99 ${fmt(again.p99)} ms`);
  } finally {
    await pool.close();
    await broker.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();

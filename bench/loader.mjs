// Loading the shipped manifests plus generated ones (1,009 and 5,000 in all), against JSON.parse of
// the same bytes: cold (CPU time, so a busy shared machine weighs on both sides alike), a reload
// after one manifest changed, and the memory a load takes: its peak RSS growth and what the
// registry keeps, each measured in a fresh child process, against the bytes of the files.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadRegistry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";
import { compare, fmt } from "./measure.mjs";

const SIZES = [1009, 5000];

/** The shipped manifests, then generated ones (each a shipped one under another id and name) up to `total`, as file texts. */
export function manifestTexts(total) {
  const texts = manifestFiles.map(({ file, json }) => ({ file, text: JSON.stringify(json, null, 2) }));
  for (let i = 0; texts.length < total; i += 1) {
    const source = manifestFiles[i % manifestFiles.length].json;
    const id = `generated-${String(i).padStart(4, "0")}`;
    texts.push({ file: `${id}.json`, text: JSON.stringify({ ...source, id, name: `${source.name} ${i}` }, null, 2) });
  }
  return texts;
}

/** The same texts in fresh strings, as a reload reading the files again would get them. */
const reread = (texts) => texts.map(({ file, text }) => ({ file, text: Buffer.from(text).toString("utf8") }));

const bytesOf = (texts) => texts.reduce((sum, { text }) => sum + Buffer.byteLength(text), 0);

/** Child: load the manifests written to `dir` once and report peak RSS growth and retained heap. */
function memoryChild(dir) {
  const texts = readdirSync(dir).map((file) => ({ file, text: readFileSync(join(dir, file), "utf8") }));
  globalThis.gc();
  const before = process.memoryUsage();
  const peakBefore = process.resourceUsage().maxRSS * 1024;
  const registry = loadRegistry(texts);
  const peak = process.resourceUsage().maxRSS * 1024;
  globalThis.gc();
  const after = process.memoryUsage();
  process.stdout.write(
    JSON.stringify({
      loaded: registry.integrations().length,
      peakGrowth: peak - before.rss,
      // The high-water mark before the load (making the texts) can hide the load's own peak: then this says so.
      hidden: peakBefore >= peak,
      retained: after.heapUsed + after.external - before.heapUsed - before.external,
    }),
  );
}

function memory(texts) {
  const dir = mkdtempSync(join(tmpdir(), "eleven-loader-bench-"));
  try {
    for (const { file, text } of texts) writeFileSync(join(dir, file), text);
    const out = execFileSync(process.execPath, ["--expose-gc", fileURLToPath(import.meta.url), "--memory", dir], { encoding: "utf8" });
    return JSON.parse(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run() {
  for (const total of SIZES) {
    const texts = manifestTexts(total);
    const bytes = bytesOf(texts);
    let registry;
    const cold = await compare(
      () => {
        registry = loadRegistry(texts);
      },
      () => {
        for (const { text } of texts) JSON.parse(text);
      },
      { rounds: total > 2000 ? 5 : 9, warmup: 2, clock: "cpu" },
    );
    const mib = (n) => `${fmt(n / 1024 / 1024, 1)} MiB`;
    console.log(
      `\nmanifests: ${texts.length} (${manifestFiles.length} shipped + ${texts.length - manifestFiles.length} generated), ${mib(bytes)}, ${registry.integrations().length} loaded`,
    );
    console.log(`cold loadRegistry (parse + validate + freeze; hashes and compiled ops made on first use): ${fmt(cold.measuredMs)} ms CPU`);
    console.log(`floor, JSON.parse of the same bytes:                                                    ${fmt(cold.floorMs)} ms CPU`);
    console.log(`cold ratio at ${total}: ${fmt(cold.ratio, 1)}x JSON.parse (goal at most 5x)`);
    // The same, each side after a full collection: neither pays for moving what the other kept (see measure.mjs).
    const settled = await compare(
      () => {
        registry = loadRegistry(texts);
      },
      () => {
        for (const { text } of texts) JSON.parse(text);
      },
      { rounds: total > 2000 ? 5 : 9, warmup: 1, clock: "cpu", settle: true },
    );
    console.log(
      `cold ratio at ${total}, each side after a full collection: ${fmt(settled.ratio, 1)}x JSON.parse (${fmt(settled.measuredMs)} against ${fmt(settled.floorMs)} ms CPU)`,
    );
    const hashed = await compare(
      () => loadRegistry(texts).hash,
      () => {
        for (const { text } of texts) JSON.parse(text);
      },
      { rounds: total > 2000 ? 3 : 5, warmup: 1, clock: "cpu" },
    );
    console.log(`cold load and the registry hash (every manifest's RFC 8785 JSON, sha-256): ${fmt(hashed.ratio, 1)}x JSON.parse`);
    const { peakGrowth, retained, hidden } = memory(texts);
    console.log(
      `peak RSS growth during the load: ${mib(peakGrowth)}, ${fmt(peakGrowth / bytes, 2)}x the bytes (goal at most 3x)${hidden ? " (at most: the texts' making peaked higher)" : ""}`,
    );
    console.log(`heap the registry keeps beyond the texts (hashes not yet made): ${mib(retained)}, ${fmt(retained / bytes, 2)}x the bytes`);

    if (total !== SIZES[0]) continue;
    // Reload: every file read again, one manifest changed; `previous` is the registry loaded from the same files before.
    const middle = Math.floor(texts.length / 2);
    const previous = loadRegistry(reread(texts));
    void previous.hash; // its hash states are what a reload resumes from
    let round = 0;
    const variants = [0, 1].map((flip) =>
      reread(texts).map((entry, index) => (index === middle ? { ...entry, text: entry.text.replace('"name": "', `"name": "v${flip} `) } : entry)),
    );
    const reload = await compare(
      () => {
        registry = loadRegistry(variants[round++ % 2], { previous });
      },
      () => loadRegistry(texts),
      { rounds: 9, warmup: 2, clock: "cpu" },
    );
    console.log(`reload with one manifest changed (previous given): ${fmt(reload.measuredMs)} ms CPU`);
    console.log(`cold load of the same files:                       ${fmt(reload.floorMs)} ms CPU`);
    console.log(`reload ratio: 1/${fmt(1 / reload.ratio, 0)} of the cold load (goal at most 1/50)`);
    const rehash = await compare(
      () => void loadRegistry(variants[round++ % 2], { previous }).hash,
      () => void loadRegistry(texts).hash,
      { rounds: 9, warmup: 2, clock: "cpu" },
    );
    console.log(`with the registry hash on both sides (resumed from the state saved before the change): 1/${fmt(1 / rehash.ratio, 0)}`);
  }
}

if (process.argv[2] === "--memory") memoryChild(process.argv[3]);
else if (import.meta.url === `file://${process.argv[1]}`) await run();

// Loading the shipped manifests plus 1,000 generated ones, against JSON.parse of the same bytes:
// cold, and a reload (with `previous`) after one manifest changed.
import { loadRegistry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";
import { compare, fmt } from "./measure.mjs";

/** The same texts in fresh strings, as a reload reading the files again would get them. */
const reread = (texts) => texts.map(({ file, text }) => ({ file, text: Buffer.from(text).toString("utf8") }));

export async function run() {
  const texts = manifestFiles.map(({ file, json }) => ({ file, text: JSON.stringify(json, null, 2) }));
  for (let i = 0; i < 1000; i += 1) {
    const source = manifestFiles[i % manifestFiles.length].json;
    const id = `generated-${String(i).padStart(4, "0")}`;
    texts.push({ file: `${id}.json`, text: JSON.stringify({ ...source, id, name: `${source.name} ${i}` }, null, 2) });
  }
  const bytes = texts.reduce((sum, { text }) => sum + Buffer.byteLength(text), 0);
  let registry;
  const cold = await compare(
    () => {
      registry = loadRegistry(texts.map(({ file, text }) => ({ file, json: JSON.parse(text) })));
    },
    () => {
      for (const { text } of texts) JSON.parse(text);
    },
    { rounds: 9, warmup: 2 },
  );
  console.log(`manifests: ${texts.length} (${manifestFiles.length} shipped + 1000 generated), ${fmt(bytes / 1024, 0)} KiB, ${registry.integrations().length} loaded`);
  console.log(`cold loadRegistry (parse + validate + compile + hash): ${fmt(cold.measuredMs)} ms`);
  console.log(`floor, JSON.parse of the same bytes:                   ${fmt(cold.floorMs)} ms`);
  console.log(`cold ratio: ${fmt(cold.ratio, 1)}x JSON.parse (goal at most 5x)`);

  // Reload: every file read again, one manifest changed; `previous` is the registry loaded from the same files before.
  const middle = Math.floor(texts.length / 2);
  const previous = loadRegistry(reread(texts));
  let round = 0;
  const variants = [0, 1].map((flip) =>
    reread(texts).map((entry, index) => (index === middle ? { ...entry, text: entry.text.replace('"name": "', `"name": "v${flip} `) } : entry)),
  );
  const reload = await compare(
    () => {
      registry = loadRegistry(variants[round++ % 2], { previous });
    },
    () => {
      loadRegistry(texts.map(({ file, text }) => ({ file, json: JSON.parse(text) })));
    },
    { rounds: 9, warmup: 2 },
  );
  console.log(`reload with one manifest changed (previous given): ${fmt(reload.measuredMs)} ms`);
  console.log(`cold load of the same files:                       ${fmt(reload.floorMs)} ms`);
  console.log(`reload ratio: 1/${fmt(1 / reload.ratio, 0)} of the cold load (goal at most 1/50)`);
}

if (import.meta.url === `file://${process.argv[1]}`) await run();

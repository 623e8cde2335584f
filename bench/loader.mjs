// Loading the shipped manifests plus 1,000 generated ones, against JSON.parse of the same bytes.
import { loadRegistry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";
import { compare, fmt } from "./measure.mjs";

export async function run() {
  const texts = manifestFiles.map(({ file, json }) => ({ file, text: JSON.stringify(json, null, 2) }));
  for (let i = 0; i < 1000; i += 1) {
    const source = manifestFiles[i % manifestFiles.length].json;
    const id = `generated-${String(i).padStart(4, "0")}`;
    texts.push({ file: `${id}.json`, text: JSON.stringify({ ...source, id, name: `${source.name} ${i}` }, null, 2) });
  }
  const bytes = texts.reduce((sum, { text }) => sum + Buffer.byteLength(text), 0);
  let registry;
  const result = await compare(
    () => {
      registry = loadRegistry(texts.map(({ file, text }) => ({ file, json: JSON.parse(text) })));
    },
    () => {
      for (const { text } of texts) JSON.parse(text);
    },
    { rounds: 9, warmup: 2 },
  );
  console.log(`manifests: ${texts.length} (${manifestFiles.length} shipped + 1000 generated), ${fmt(bytes / 1024, 0)} KiB, ${registry.integrations().length} loaded`);
  console.log(`loadRegistry (parse + validate + compile + hash): ${fmt(result.measuredMs)} ms`);
  console.log(`floor, JSON.parse of the same bytes:             ${fmt(result.floorMs)} ms`);
  console.log(`ratio: ${fmt(result.ratio, 1)}x`);
}

if (import.meta.url === `file://${process.argv[1]}`) await run();

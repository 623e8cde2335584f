// `pnpm bench`: every ratio benchmark in one process, one after another, each
// printing its measurement next to the floor measured in the same run.
const suites = [
  "loader",
  "registry-scale",
  "broker-ready",
  "executor",
  "grants",
  "broker",
  "search",
  "sidecar",
  "in-flight",
  "redis-trips",
  "write-receipt",
  "cli",
];
const only = process.argv.slice(2);
for (const name of suites) {
  if (only.length > 0 && !only.includes(name)) continue;
  console.log(`\n## ${name}`);
  const { run } = await import(`./${name}.mjs`);
  await run();
}

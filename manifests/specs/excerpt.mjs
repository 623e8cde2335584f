// Writes an excerpt of a provider's OpenAPI description: the path items a manifest reaches, and
// every component they reference (transitively), with `x-excerpt` naming the source file, its
// repository and revision. For descriptions published in a repository rather than on npm
// (PagerDuty/api-schema, getsentry/sentry-api-schema), too large to commit whole.
//
//   node manifests/specs/excerpt.mjs <full description.json> <out.json> <source> <revision> <path>...
//
// The paths are the description's own path keys. Nothing is changed inside what is kept.
import { readFileSync, writeFileSync } from "node:fs";

const [input, output, source, revision, ...paths] = process.argv.slice(2);
if (input === undefined || output === undefined || source === undefined || revision === undefined || paths.length === 0) {
  console.error("usage: excerpt.mjs <description.json> <out.json> <source> <revision> <path>...");
  process.exit(2);
}
const document = JSON.parse(readFileSync(input, "utf8"));
const kept = {};
for (const path of paths) {
  if (document.paths?.[path] === undefined) {
    console.error(`${input} has no path ${path}`);
    process.exit(1);
  }
  kept[path] = document.paths[path];
}
// Components referenced from what is kept, followed until nothing new turns up.
const components = {};
const seen = new Set();
const visit = (value) => {
  if (Array.isArray(value)) return value.forEach(visit);
  if (value === null || typeof value !== "object") return;
  for (const [key, inner] of Object.entries(value)) {
    if (key === "$ref" && typeof inner === "string" && inner.startsWith("#/components/") && !seen.has(inner)) {
      seen.add(inner);
      const [, , kind, ...rest] = inner.split("/");
      const name = rest.join("/").replace(/~1/g, "/").replace(/~0/g, "~");
      const target = document.components?.[kind]?.[name];
      if (target === undefined) throw new Error(`dangling reference ${inner}`);
      (components[kind] ??= {})[name] = target;
      visit(target);
    } else visit(inner);
  }
};
visit(kept);
const excerpt = {
  openapi: document.openapi,
  info: { ...document.info, "x-excerpt": { source, revision, paths } },
  servers: document.servers,
  paths: kept,
  ...(Object.keys(components).length > 0 ? { components } : {}),
};
writeFileSync(output, `${JSON.stringify(excerpt, null, 1)}\n`);
console.log(`${output}: ${paths.length} paths, ${[...seen].length} components`);

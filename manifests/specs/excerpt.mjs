// Writes an excerpt of a provider's OpenAPI description: the path items a manifest reaches, and
// every component they reference (transitively), with `x-excerpt` naming the source file, its
// repository and revision. For descriptions published in a repository rather than on npm
// (PagerDuty/api-schema, getsentry/sentry-api-schema), too large to commit whole.
//
//   node manifests/specs/excerpt.mjs <full description.json|yaml> <out.json> <source> <revision> <path>...
//        [--and <description> <source> <revision> <path>...]...
//
// The paths are the description's own path keys. Nothing is changed inside what is kept, except
// when several descriptions are merged (HubSpot publishes one per API, after `--and`): each
// operation then keeps its own description's `servers`, and a component whose name an earlier
// description already uses for other content is kept as `<name>__<n>` (n: the description's
// place), with the references to it rewritten.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const [output, ...rest] = ((argv) => [argv[1], argv[0], ...argv.slice(2)])(process.argv.slice(2));
const groups = [];
for (const word of rest) {
  if (word === "--and") groups.push([]);
  else (groups.at(-1) ?? groups[groups.push([]) - 1]).push(word);
}
if (output === undefined || groups.length === 0 || groups.some((group) => group.length < 4)) {
  console.error("usage: excerpt.mjs <description> <out.json> <source> <revision> <path>... [--and <description> <source> <revision> <path>...]...");
  process.exit(2);
}

/** YAML (Intercom publishes YAML) through the js-yaml the CLI's spec reader already depends on. */
function read(file) {
  const text = readFileSync(file, "utf8");
  if (file.endsWith(".json")) return JSON.parse(text);
  const cli = createRequire(join(dirname(fileURLToPath(import.meta.url)), "..", "..", "packages", "cli", "package.json"));
  return createRequire(cli.resolve("@apidevtools/json-schema-ref-parser"))("js-yaml").load(text);
}

/** `#/components/<kind>/<name>` of a reference, also of one that points inside the component. */
const componentRef = (ref) => ref.split("/").slice(0, 4).join("/");

const merged = groups.length > 1;
const kept = {};
const components = {};
const sources = [];
let first;
let total = 0;
groups.forEach(([input, source, revision, ...paths], place) => {
  const document = read(input);
  first ??= document;
  sources.push({ source, revision, paths });
  // Components referenced from what is kept, followed until nothing new turns up.
  const reached = new Map();
  const visit = (value) => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (value === null || typeof value !== "object") return;
    for (const [key, inner] of Object.entries(value)) {
      if (key === "$ref" && typeof inner === "string" && inner.startsWith("#/components/") && !reached.has(componentRef(inner))) {
        // A reference may point inside a component (PagerDuty's #/components/schemas/Tag/allOf/0): keep the whole component.
        const [, , kind, encoded = ""] = inner.split("/");
        const name = encoded.replace(/~1/g, "/").replace(/~0/g, "~");
        const target = document.components?.[kind]?.[name];
        if (target === undefined) throw new Error(`dangling reference ${inner}`);
        reached.set(componentRef(inner), { kind, name, target });
        visit(target);
      } else visit(inner);
    }
  };
  for (const path of paths) {
    if (document.paths?.[path] === undefined) {
      console.error(`${input} has no path ${path}`);
      process.exit(1);
    }
    visit(document.paths[path]);
  }
  const renamed = new Map();
  for (const [ref, { kind, name, target }] of reached) {
    const existing = components[kind]?.[name];
    const clash = existing !== undefined && JSON.stringify(existing) !== JSON.stringify(target);
    renamed.set(ref, { kind, name: clash ? `${name}__${place}` : name, changed: clash });
  }
  const anyRenamed = [...renamed.values()].some((entry) => entry.changed);
  const rewrite = (value) => {
    if (!anyRenamed) return value;
    if (Array.isArray(value)) return value.map(rewrite);
    if (value === null || typeof value !== "object") return value;
    const copy = {};
    for (const [key, inner] of Object.entries(value)) {
      const target = key === "$ref" && typeof inner === "string" ? renamed.get(componentRef(inner)) : undefined;
      copy[key] = target === undefined ? rewrite(inner) : `#/components/${target.kind}/${target.name.replace(/~/g, "~0").replace(/\//g, "~1")}${inner.slice(componentRef(inner).length)}`;
    }
    return copy;
  };
  for (const [ref, { target }] of reached) {
    const { kind, name } = renamed.get(ref);
    (components[kind] ??= {})[name] = rewrite(target);
  }
  for (const path of paths) {
    const item = rewrite(document.paths[path]);
    kept[path] = merged && document.servers !== undefined ? { servers: document.servers, ...item } : item;
  }
  total += reached.size;
});
const excerpt = {
  openapi: first.openapi,
  info: { ...first.info, "x-excerpt": merged ? sources : sources[0] },
  servers: first.servers,
  paths: kept,
  ...(Object.keys(components).length > 0 ? { components } : {}),
};
writeFileSync(output, `${JSON.stringify(excerpt, null, 1)}\n`);
console.log(`${output}: ${Object.keys(kept).length} paths, ${total} components`);

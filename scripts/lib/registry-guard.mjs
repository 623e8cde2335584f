// Where each public package would be published, and a refusal when that is not
// the one registry a release was told to use.
import { execFileSync } from "node:child_process";

function normalise(url) {
  return url.endsWith("/") ? url : `${url}/`;
}

function npmConfig(key, cwd, env) {
  const value = execFileSync("npm", ["config", "get", key], { cwd, env, encoding: "utf8" }).trim();
  return value === "" || value === "undefined" || value === "null" ? undefined : value;
}

/**
 * The registry `pnpm publish` sends a package to: its `publishConfig.registry`,
 * else the `@scope:registry` setting, else `registry`, as npm resolves them from
 * the package's folder.
 */
export function publishRegistry(pkg, env = process.env) {
  const scope = pkg.name.startsWith("@") ? pkg.name.slice(0, pkg.name.indexOf("/")) : undefined;
  const configured =
    pkg.manifest.publishConfig?.registry ??
    (scope === undefined ? undefined : npmConfig(`${scope}:registry`, pkg.dir, env)) ??
    npmConfig("registry", pkg.dir, env);
  return normalise(configured ?? "https://registry.npmjs.org/");
}

/**
 * Throws unless every package would be published to `expected`. Without `expected`
 * every package must at least go to the same registry. Returns that registry.
 */
export function assertOneRegistry(packages, expected, env = process.env) {
  const targets = packages.map((pkg) => ({ name: pkg.name, registry: publishRegistry(pkg, env) }));
  const wanted = expected === undefined ? targets[0]?.registry : normalise(expected);
  const strays = targets.filter((target) => target.registry !== wanted);
  if (strays.length > 0) {
    throw new Error(`refusing to publish: ${strays.map((stray) => `${stray.name} would go to ${stray.registry}`).join("; ")}, not ${wanted}`);
  }
  return wanted;
}

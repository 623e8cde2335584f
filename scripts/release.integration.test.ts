// `pnpm release` for real, against a local npm registry (verdaccio) started here:
// every public package is versioned, built, checked, published there, installed
// alone into an empty project and used; then manifests/ is extracted and its CI
// runs with only what was published. Nothing of ours can reach another registry:
// the copy's packages carry `publishConfig.registry` = the local one, npm's
// configuration in every step points there, the release script refuses any other
// target, and no user configuration (credentials) is read.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { get } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalRegistry } from "./lib/local-registry.mjs";
import { publicPackages } from "./lib/workspace.mjs";

interface LocalRegistry {
  url: string;
  token: string;
  storage: string;
  close(): Promise<void>;
  output(): string;
}
interface PackageJson {
  name: string;
  version: string;
  private?: boolean;
  dependencies?: Record<string, string>;
  publishConfig?: Record<string, string>;
}

const root = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const SCOPE = "@eleven-integrations/";
const timings: Record<string, number> = {};
let work: string;
let copy: string;
let registry: LocalRegistry;
let env: NodeJS.ProcessEnv;
let releaseKeyFile: string;
let releasePublicKey: string;

function timed<T>(name: string, action: () => T): T {
  const start = Date.now();
  try {
    return action();
  } finally {
    timings[name] = (Date.now() - start) / 1000;
  }
}

function sh(command: string, args: string[], cwd: string, extra: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(command, args, { cwd, env: { ...env, ...extra }, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

function shOk(command: string, args: string[], cwd: string) {
  const result = sh(command, args, cwd);
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed in ${cwd}:\n${result.output}`);
  return result.output;
}

/** GET on the local registry on a fresh connection (verdaccio closes idle keep-alive sockets). */
function registryGet(name: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get(`${registry.url}${name.replace("/", "%2f")}`, { agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
      response.on("error", reject);
    }).on("error", reject);
  });
}

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, "utf8")) as T;
}

/** The copy's public packages, as folders relative to it (read once it is installed). */
let publicFolders: string[] = [];

function packageJsonIn(folder: string): PackageJson {
  return readJson<PackageJson>(join(copy, folder, "package.json"));
}

/** The repository as it is in this worktree (tracked and new files, no node_modules or dist). */
function copyRepository(target: string) {
  const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "-z"], { cwd: root, encoding: "utf8" }).split("\0").filter(Boolean);
  for (const file of files) {
    if (!existsSync(join(root, file))) continue; // deleted in the worktree
    mkdirSync(dirname(join(target, file)), { recursive: true });
    cpSync(join(root, file), join(target, file));
  }
}

function npmrc(url: string, token: string) {
  const host = url.replace(/^http:/, "");
  return `registry=${url}\n@eleven-integrations:registry=${url}\n${host}:_authToken=${token}\naudit=false\nfund=false\nupdate-notifier=false\n`;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "release-test-"));
  const uplink = execFileSync("npm", ["config", "get", "registry"], { encoding: "utf8" }).trim();
  registry = await startLocalRegistry({ dir: join(work, "verdaccio"), uplink });
  const userconfig = join(work, "npmrc");
  writeFileSync(userconfig, npmrc(registry.url, registry.token));
  env = {
    ...process.env,
    // npm's and pnpm's configuration: the local registry only, and no user file with credentials.
    npm_config_userconfig: userconfig,
    npm_config_registry: registry.url,
    "npm_config_@eleven-integrations:registry": registry.url,
    ELEVEN_RELEASE_REGISTRY: registry.url,
    TURBO_TELEMETRY_DISABLED: "1",
    CI: "true",
    GIT_AUTHOR_NAME: "release test",
    GIT_AUTHOR_EMAIL: "release@test.invalid",
    GIT_COMMITTER_NAME: "release test",
    GIT_COMMITTER_EMAIL: "release@test.invalid",
  };
  for (const key of Object.keys(env)) if (/^npm_config_(_|\/\/)/i.test(key) || key === "NPM_TOKEN" || key === "NODE_AUTH_TOKEN") delete env[key];

  copy = join(work, "repo");
  timed("copy and install the repository", () => {
    copyRepository(copy);
    writeFileSync(join(copy, ".npmrc"), `${readFileSync(join(copy, ".npmrc"), "utf8")}\n${npmrc(registry.url, registry.token)}`);
    shOk("git", ["init", "-q", "-b", "main"], copy);
    shOk("git", ["add", "-A"], copy);
    shOk("git", ["commit", "-q", "-m", "release test"], copy);
    shOk("pnpm", ["install", "--frozen-lockfile", "--prefer-offline"], copy);
  });
  publicFolders = publicPackages(copy).map((pkg: { dir: string }) => relative(copy, pkg.dir));
  for (const folder of publicFolders) {
    const path = join(copy, folder, "package.json");
    writeFileSync(path, `${JSON.stringify({ ...readJson<PackageJson>(path), publishConfig: { registry: registry.url } }, null, 2)}\n`);
  }
  shOk("git", ["commit", "-q", "-am", "publish to the local registry only"], copy);
  // The release key, made with the CLI of this worktree (the copy's is built by the release itself).
  releaseKeyFile = join(work, "release-key.json");
  releasePublicKey = execFileSync("node", [join(root, "packages", "cli", "dist", "bin.js"), "keys", "release", "--out", releaseKeyFile], {
    cwd: work,
    env,
    encoding: "utf8",
  }).trim();
  expect(releasePublicKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
  env.ELEVEN_RELEASE_KEY = releaseKeyFile;
}, 600_000);

afterAll(async () => {
  await registry?.close();
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
  console.log(`release test timings (s): ${JSON.stringify(timings)}`);
}, 300_000);

describe("pnpm release against a local registry", () => {
  it("refuses to start when a package would be published anywhere but the registry it was told", () => {
    const before = packageJsonIn("packages/schema").version;
    const result = sh("pnpm", ["release"], copy, { ELEVEN_RELEASE_REGISTRY: "https://registry.example.invalid/" });
    expect(result.status).not.toBe(0);
    expect(result.output).toContain(`refusing to publish: @eleven-integrations/cli would go to ${registry.url}`);
    expect(packageJsonIn("packages/schema").version).toBe(before); // nothing versioned
  });

  it("refuses to start without the release key, since a release carries the signed registry", () => {
    const before = packageJsonIn("packages/schema").version;
    const result = sh("pnpm", ["release"], copy, { ELEVEN_RELEASE_KEY: "" });
    expect(result.status).not.toBe(0);
    expect(result.output).toContain("give the release key: --release-key <file> or ELEVEN_RELEASE_KEY");
    expect(packageJsonIn("packages/schema").version).toBe(before);
  });

  it("versions, builds, checks and publishes every public package to the local registry only", async () => {
    // The changesets that name a public package; those naming only private apps stay (privatePackages.version is false).
    const publicNames = publicFolders.map((folder) => packageJsonIn(folder).name);
    const pending = readdirSync(join(copy, ".changeset"))
      .filter((file) => file.endsWith(".md") && file !== "README.md")
      .filter((file) => publicNames.some((name) => readFileSync(join(copy, ".changeset", file), "utf8").includes(`"${name}"`)));
    const result = timed("pnpm release", () => sh("pnpm", ["release"], copy));
    expect(result.status, result.output).toBe(0);
    for (const folder of publicFolders) {
      const { name, version } = packageJsonIn(folder);
      expect(result.output).toContain(`ok ${name}@${version}: publint (strict) and attw (esm-only) found nothing`);
      const response = await registryGet(name);
      expect(response.status, `${name} on the local registry`).toBe(200);
      const document = JSON.parse(response.body) as { versions: Record<string, unknown> };
      expect(Object.keys(document.versions)).toEqual([version]);
      expect(existsSync(join(registry.storage, name, `${name.slice(SCOPE.length)}-${version}.tgz`))).toBe(true);
    }
    // The signed registry: written, verified by a trusted key, committed with the versions.
    const signed = join(copy, "manifests", "registry.signed.json");
    expect(existsSync(signed)).toBe(true);
    expect(readJson<{ registry: { sequence: number; previous: string | null } }>(signed).registry).toMatchObject({ sequence: 1, previous: null });
    expect(sh("node", [join(copy, "packages", "cli", "dist", "bin.js"), "registry", "verify", "--keys", releasePublicKey, signed], copy).status).toBe(0);
    // The versions are committed and every published version is tagged on that commit.
    if (pending.length > 0) expect(shOk("git", ["log", "-1", "--format=%s"], copy).trim()).toBe("Version packages");
    const tags = shOk("git", ["tag", "--points-at", "HEAD"], copy);
    for (const folder of publicFolders) expect(tags).toContain(`${packageJsonIn(folder).name}@${packageJsonIn(folder).version}`);
    expect(shOk("git", ["status", "--porcelain"], copy).trim()).toBe("");
    if (pending.length > 0) expect(readdirSync(join(copy, ".changeset")).filter((file) => pending.includes(file))).toEqual([]);
    // The apps, what they share and the tooling are private: never published.
    for (const name of ["broker", "sidecar", "server-kit", "bench", "scripts", "test-support"]) {
      expect((await registryGet(`${SCOPE}${name}`)).status, `${SCOPE}${name} must not be published`).toBe(404);
    }
  }, 900_000);

  const smoke: Record<string, string> = {
    schema: `const { parseManifest } = await import("@eleven-integrations/schema");
      const result = parseManifest(manifest); if (!result.ok) throw new Error(JSON.stringify(result.issues));
      console.log("schema: parsed " + result.manifest.id);`,
    loader: `const { loadRegistry } = await import("@eleven-integrations/loader");
      const registry = loadRegistry([{ file: manifest.id + ".json", json: manifest }]);
      if (!/^[0-9a-f]{64}$/.test(registry.hash)) throw new Error("no hash"); console.log("loader: hash " + registry.hash);`,
    executor: `const { loadRegistry } = await import("@eleven-integrations/loader");
      const { createExecutor } = await import("@eleven-integrations/executor");
      const executor = createExecutor({ registry: loadRegistry([{ file: manifest.id + ".json", json: manifest }]) });
      const answer = executor.validate({ integration: manifest.id, op: "no.such_op", args: {} });
      await executor.close(); if (answer?.error.code !== "unknown_op") throw new Error(JSON.stringify(answer));
      console.log("executor: " + answer.error.code);`,
    grants: `const { ready, generateMemberKeys } = await import("@eleven-integrations/grants");
      await ready(); const keys = generateMemberKeys(); if (keys.publicKey.length !== 43) throw new Error("bad key");
      console.log("grants: member key " + keys.publicKey.length + " chars");`,
    manifests: `const { manifestFiles, signedRegistryFile } = await import("@eleven-integrations/manifests");
      if (signedRegistryFile === null) throw new Error("the release carries no signed registry");
      const signed = JSON.parse(readFileSync(signedRegistryFile, "utf8"));
      if (signed.registry.integrations.length !== manifestFiles.length) throw new Error("signed registry and manifests differ");
      console.log("manifests: " + manifestFiles.length + " files, signed release " + signed.registry.sequence);`,
    search: `const { createSearchIndex } = await import("@eleven-integrations/search");
      const hits = createSearchIndex([manifest]).search(manifest.name);
      if (hits.length === 0) throw new Error("no hit"); console.log("search: " + hits.length + " hits");`,
    "sidecar-protocol": `const { runBodySchema, createSidecarClient } = await import("@eleven-integrations/sidecar-protocol");
      if (!runBodySchema.safeParse({ grant: "eg1.x", op: "repos.list" }).success) throw new Error("run body refused");
      const description = JSON.parse(readFileSync(new URL(import.meta.resolve("@eleven-integrations/sidecar-protocol/openapi.json")), "utf8"));
      if (description.openapi !== "3.1.0" || typeof createSidecarClient !== "function") throw new Error("no description");
      console.log("sidecar-protocol: " + Object.keys(description.paths).length + " described routes");`,
    events: `const { verifyWebhook } = await import("@eleven-integrations/events");
      const answer = verifyWebhook({ dialect: "github", secret: undefined, headers: {}, body: new Uint8Array(0) });
      if (answer.ok || answer.reason !== "no_secret") throw new Error(JSON.stringify(answer));
      console.log("events: " + answer.reason);`,
    cli: `const { main } = await import("@eleven-integrations/cli"); if (typeof main !== "function") throw new Error("no main");
      console.log("cli: main exported");`,
  };

  /** Our packages a package needs, itself included: what installing it alone may bring. */
  function closure(name: string, seen = new Set<string>()): Set<string> {
    seen.add(name);
    const folder = publicFolders.find((candidate) => packageJsonIn(candidate).name === name);
    for (const dependency of Object.keys(packageJsonIn(folder!).dependencies ?? {})) {
      if (dependency.startsWith(SCOPE) && !seen.has(dependency)) closure(dependency, seen);
    }
    return seen;
  }

  it("installs each package alone in an empty project, imports it and calls it; the CLI validates the published manifests", () => {
    const manifest = readJson<Record<string, unknown>>(join(copy, "manifests", "integrations", "todoist.json"));
    delete manifest.$schema;
    timed("install each package alone", () => {
      for (const folder of publicFolders) {
        const { name, version } = packageJsonIn(folder);
        const short = name.slice(SCOPE.length);
        // A package this test does not know yet is at least imported and must export something.
        const code =
          smoke[short] ??
          `const module = await import(${JSON.stringify(name)});
          if (Object.keys(module).length === 0) throw new Error("exports nothing"); console.log("${short}: " + Object.keys(module).length + " exports");`;
        const project = join(work, "consumers", short);
        mkdirSync(project, { recursive: true });
        writeFileSync(join(project, "package.json"), JSON.stringify({ name: `consumer-${short}`, private: true, type: "module" }));
        writeFileSync(join(project, ".npmrc"), npmrc(registry.url, registry.token));
        writeFileSync(join(project, "manifest.json"), JSON.stringify(manifest));
        shOk("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", `${name}@${version}`], project);
        const installed = readdirSync(join(project, "node_modules", "@eleven-integrations"))
          .map((entry) => `${SCOPE}${entry}`)
          .sort();
        expect(installed, `what installing ${name} alone brings`).toEqual([...closure(name)].sort());
        expect(readJson<PackageJson>(join(project, "node_modules", name, "package.json")).version).toBe(version);
        writeFileSync(
          join(project, "check.mjs"),
          `import { readFileSync } from "node:fs";\nconst manifest = JSON.parse(readFileSync("manifest.json", "utf8"));\n${code}\n`,
        );
        expect(shOk("node", ["check.mjs"], project)).toContain(`${short}:`);
        if (short === "cli") {
          const output = shOk("npx", ["--no-install", "integrations", "validate", "node_modules/@eleven-integrations/manifests/integrations"], project);
          const count = readdirSync(join(copy, "manifests", "integrations")).filter((file) => file.endsWith(".json")).length;
          expect(output).toMatch(new RegExp(`ok: ${count} manifests, \\d+ ops valid`));
          // The signed registry the manifests package carries verifies with the published CLI.
          const verified = sh(
            "npx",
            [
              "--no-install",
              "integrations",
              "registry",
              "verify",
              "--keys",
              releasePublicKey,
              "node_modules/@eleven-integrations/manifests/registry.signed.json",
            ],
            project,
          );
          expect(verified.status, verified.output).toBe(0);
        }
      }
    });
  }, 900_000);

  it("extracts manifests/ into a repository of its own whose CI passes with only the published CLI", () => {
    const target = join(work, "standalone");
    const extracted = sh("pnpm", ["manifests:extract", target], copy);
    expect(extracted.status, extracted.output).toBe(0);
    const standalone = readJson<{ devDependencies: Record<string, string> }>(join(target, "package.json"));
    expect(standalone.devDependencies[`${SCOPE}cli`]).toBe(`^${packageJsonIn("packages/cli").version}`);
    expect(JSON.stringify(standalone)).not.toContain("workspace:");
    expect(readFileSync(join(target, "registry.signed.json"), "utf8")).toBe(readFileSync(join(copy, "manifests", "registry.signed.json"), "utf8"));
    for (const file of ["README.md", ".ci/run", ".changeset/config.json", "scripts/embed.mjs", "integrations/github.json"]) {
      expect(existsSync(join(target, file)), file).toBe(true);
    }
    // Its own registry configuration, as the future repository's CI would have.
    writeFileSync(join(target, ".npmrc"), npmrc(registry.url, registry.token));
    const ci = timed("standalone manifests CI", () => sh(join(target, ".ci", "run"), [], target));
    expect(ci.status, ci.output).toBe(0);
    expect(ci.output).toMatch(/ok: \d+ manifests, \d+ ops valid/);
    expect(ci.output).toMatch(/\d+ manifests embedded in dist\/index\.js/);
    const cli = readJson<PackageJson>(join(target, "node_modules", "@eleven-integrations", "cli", "package.json"));
    expect(cli.version).toBe(packageJsonIn("packages/cli").version);
    expect(existsSync(join(target, "node_modules", "@eleven-integrations", "cli", "src"))).toBe(false); // the published tarball, not a link
  }, 900_000);
});

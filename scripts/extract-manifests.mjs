// `pnpm manifests:extract <dir>`: writes manifests/ as a repository of its own, the
// future elevenmessenger/integrations: its package.json depends on the PUBLISHED
// CLI and schema (no workspace link), a README, `.ci/run` that installs and
// validates, and `.changeset/` for its releases. <dir> must be empty or absent.
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { repositoryRoot } from "./lib/workspace.mjs";
import { SIGNED_REGISTRY_FILE } from "./lib/sign-registry.mjs";

const CHANGESETS_VERSION = "2.31.1";

function readJson(path) {
  return JSON.parse(readFileSync(path, "utf8"));
}

/** The standalone package.json: the monorepo's, with published dependencies and its own scripts. */
export function standalonePackageJson(root, signed) {
  const manifests = readJson(join(root, "manifests", "package.json"));
  const version = (folder) => `^${readJson(join(root, "packages", folder, "package.json")).version}`;
  const files = [...new Set([...(manifests.files ?? []), ...(signed ? [SIGNED_REGISTRY_FILE] : [])])];
  return {
    name: manifests.name,
    version: manifests.version,
    description: manifests.description,
    license: manifests.license,
    type: manifests.type,
    engines: manifests.engines,
    files,
    main: manifests.main,
    types: manifests.types,
    exports: manifests.exports,
    scripts: {
      build: "node scripts/embed.mjs",
      validate: "integrations validate integrations",
      test: "integrations validate integrations && node scripts/embed.mjs",
      changeset: "changeset",
      release: "changeset version && npm run test && changeset publish",
    },
    devDependencies: {
      "@changesets/cli": CHANGESETS_VERSION,
      "@eleven-integrations/cli": version("cli"),
      "@eleven-integrations/schema": version("schema"),
    },
  };
}

const CI_RUN = `#!/usr/bin/env bash
# CI of the manifests repository: install the published tools, validate every
# manifest with the published CLI, build the package.
set -euo pipefail
cd "$(dirname "$0")/.."
npm install --no-audit --no-fund --loglevel=error
npx --no-install integrations validate integrations
npm run build --silent
node --input-type=module -e 'const { manifestFiles } = await import("./dist/index.js"); console.log(manifestFiles.length + " manifests embedded in dist/index.js");'
`;

const CHANGESET_CONFIG = {
  $schema: `https://unpkg.com/@changesets/config@3.1.1/schema.json`,
  changelog: "@changesets/cli/changelog",
  commit: false,
  access: "public",
  baseBranch: "main",
  fixed: [],
  linked: [],
  updateInternalDependencies: "patch",
  ignore: [],
};

const CHANGESET_README = `# Changesets

Every pull request that changes a manifest carries a changeset: \`npx changeset\`, pick
\`@eleven-integrations/manifests\`, **minor** for a new integration or a new op, **patch**
for a fix, and say what a member will notice. A release is \`npm run release\`.
`;

function readme(root) {
  const guide = readFileSync(join(root, "manifests", "README.md"), "utf8");
  return `# Eleven integrations: the registry

The manifests of the Eleven messenger's integrations registry, one
\`integrations/<id>.json\` per service, published as \`@eleven-integrations/manifests\`.
This repository needs only the published tools: \`@eleven-integrations/cli\` (the
\`integrations\` command) and \`@eleven-integrations/schema\` (the JSON Schema editors use).

\`\`\`sh
npm install
npx integrations validate integrations   # every manifest, every problem as file: path: message
npx changeset                             # minor for a new integration, patch for a fix
.ci/run                                   # what CI runs: install, validate, build
\`\`\`

The maintainer's guide follows. Where it names \`packages/…\` (the executor's fixtures)
or \`pnpm\` commands, it means the tools monorepo these manifests were extracted from.

${guide.replace(/^# .*\n/, "")}`;
}

/** Writes the standalone repository into `target`; returns the list of files written. */
export function extractManifests(root, target) {
  if (existsSync(target) && readdirSync(target).length > 0) throw new Error(`${target} is not empty`);
  mkdirSync(target, { recursive: true });
  const source = join(root, "manifests");
  const signed = existsSync(join(source, SIGNED_REGISTRY_FILE));
  cpSync(join(source, "integrations"), join(target, "integrations"), { recursive: true });
  cpSync(join(source, "scripts"), join(target, "scripts"), { recursive: true });
  if (signed) cpSync(join(source, SIGNED_REGISTRY_FILE), join(target, SIGNED_REGISTRY_FILE));
  writeFileSync(join(target, "package.json"), `${JSON.stringify(standalonePackageJson(root, signed), null, 2)}\n`);
  writeFileSync(join(target, "README.md"), readme(root));
  writeFileSync(join(target, ".gitignore"), "node_modules/\ndist/\n*.tgz\n");
  mkdirSync(join(target, ".ci"));
  writeFileSync(join(target, ".ci", "run"), CI_RUN);
  chmodSync(join(target, ".ci", "run"), 0o755);
  mkdirSync(join(target, ".changeset"));
  writeFileSync(join(target, ".changeset", "config.json"), `${JSON.stringify(CHANGESET_CONFIG, null, 2)}\n`);
  writeFileSync(join(target, ".changeset", "README.md"), CHANGESET_README);
  return readdirSync(target, { recursive: true }).map(String).sort();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir] = process.argv.slice(2);
  if (dir === undefined) {
    console.error("usage: pnpm manifests:extract <dir>");
    process.exit(2);
  }
  // pnpm runs root scripts from the root; INIT_CWD is where the maintainer typed the command.
  const target = resolve(process.env.INIT_CWD ?? process.cwd(), dir);
  try {
    const files = extractManifests(repositoryRoot, target);
    console.log(`manifests extracted to ${target} (${files.length} entries); run .ci/run there`);
  } catch (error) {
    console.error(`manifests:extract: ${error.message}`);
    process.exit(1);
  }
}

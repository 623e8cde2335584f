// The signed registry document a release carries: `integrations registry sign` over
// manifests/integrations, written to manifests/registry.signed.json (a file of the
// manifests package, so a broker can serve it at GET /registry.signed).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";

export const SIGNED_REGISTRY_FILE = "registry.signed.json";

/** One more than the sequence of the document already there, or 1. */
export function nextSequence(manifestsDir) {
  const path = join(manifestsDir, SIGNED_REGISTRY_FILE);
  if (!existsSync(path)) return 1;
  const sequence = JSON.parse(readFileSync(path, "utf8"))?.registry?.sequence;
  if (!Number.isSafeInteger(sequence)) throw new Error(`${path} holds no registry.sequence`);
  return sequence + 1;
}

/** Signs the registry with the release key file; returns the document's path. */
export function signRegistry({ root, keyFile, sequence }) {
  const manifestsDir = join(root, "manifests");
  const number = sequence === undefined ? nextSequence(manifestsDir) : Number(sequence);
  if (!Number.isSafeInteger(number) || number < 1) throw new Error(`--sequence must be a positive integer`);
  const cli = join(root, "packages", "cli", "dist", "bin.js");
  const path = join(manifestsDir, SIGNED_REGISTRY_FILE);
  // The release before this one, so the new one names its hash in `previous` and must have a higher sequence.
  const previous = existsSync(path) ? ["--previous", path] : [];
  const next = `${path}.next`;
  try {
    execFileSync(
      "node",
      [cli, "registry", "sign", "--key", keyFile, "--sequence", String(number), ...previous, "--out", next, join(manifestsDir, "integrations")],
      { cwd: root, stdio: ["ignore", "inherit", "inherit"] },
    );
  } catch {
    rmSync(next, { force: true });
    throw new Error("`integrations registry sign` failed (see above); nothing was published");
  }
  renameSync(next, path);
  return path;
}

import { readFile, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { checkReleaseDocument, ready, ReleaseError, signRelease, verifyRelease, type ReleaseBody } from "@eleven-integrations/grants";
import { loadRegistryFromDir, loadRegistryFromRelease, RegistryError } from "@eleven-integrations/loader";
import { UsageError, type CommandIo } from "../io.js";
import { readKeyFile } from "../key-file.js";
import { manifestFolder } from "../resolve-registry.js";

export interface SignOptions {
  keyFiles: string[];
  sequence: string;
  previousFile: string | undefined;
  out: string | undefined;
  dir: string | undefined;
}

function parseSequence(text: string): number {
  if (!/^[1-9][0-9]{0,15}$/.test(text) || !Number.isSafeInteger(Number(text))) throw new UsageError(`--sequence must be a whole number from 1, not "${text}"`);
  return Number(text);
}

async function readRelease(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read the ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? "error"}`);
  }
}

/** The previous release's hash and sequence, from its document (its shape is checked, not its signatures). */
async function previousRelease(path: string): Promise<{ hash: string; sequence: number }> {
  const text = await readRelease(path, "previous release");
  try {
    const { registry } = checkReleaseDocument(JSON.parse(text));
    return { hash: registry.hash, sequence: registry.sequence };
  } catch (error) {
    if (error instanceof SyntaxError || ReleaseError.isInstance(error)) throw new UsageError(`${path} is not a registry release: ${error.message}`);
    throw error;
  }
}

/**
 * `integrations registry sign --key <file> [--key <file>]... --sequence <n> [--previous <file>] [--out <file>] [dir]`:
 * validates the folder, then writes the signed release (stdout, or `--out`).
 */
export async function registrySign(options: SignOptions, io: CommandIo): Promise<number> {
  if (options.keyFiles.length === 0) throw new UsageError("registry sign needs --key <release key file>");
  const sequence = parseSequence(options.sequence);
  await ready();
  const signers = await Promise.all(options.keyFiles.map((file) => readKeyFile(resolve(io.cwd, file), "release")));
  let previous: string | null = null;
  if (options.previousFile !== undefined) {
    const before = await previousRelease(resolve(io.cwd, options.previousFile));
    if (sequence <= before.sequence) throw new UsageError(`--sequence ${sequence} must be above the previous release's ${before.sequence}`);
    previous = before.hash;
  }
  const folder = manifestFolder(options.dir, io.cwd);
  let body: ReleaseBody;
  try {
    const registry = await loadRegistryFromDir(folder);
    const integrations = registry.catalog().integrations.map(({ hash: _hash, ...manifest }) => manifest);
    body = { schema: 1, hash: registry.hash, sequence, previous, integrations };
  } catch (error) {
    if (!RegistryError.isInstance(error)) throw error;
    for (const issue of error.issues) io.stderr(`${issue.file}: ${issue.path}: ${issue.message}\n`);
    io.stderr(`${error.issues.length} problem${error.issues.length === 1 ? "" : "s"}: nothing signed\n`);
    return 1;
  }
  const document = signRelease(body, signers);
  if (options.out === undefined) io.stdout(document);
  else await writeFile(resolve(io.cwd, options.out), document, { mode: 0o644 });
  io.stderr(
    `signed release ${sequence} of ${body.integrations.length} manifests (registry ${body.hash}) with ${signers.map((s) => s.publicKey).join(", ")}${options.out === undefined ? "" : `: ${options.out}`}\n`,
  );
  return 0;
}

/** `integrations registry verify --keys <k1,k2> <file>`: 0 when a trusted key signed it and every manifest loads to its hash. */
export async function registryVerify(keys: string | undefined, file: string | undefined, io: CommandIo): Promise<number> {
  if (keys === undefined || keys.trim() === "") throw new UsageError("registry verify needs --keys <release public key,...>");
  if (file === undefined) throw new UsageError("registry verify takes the release file");
  const trustedKeys = keys
    .split(",")
    .map((key) => key.trim())
    .filter((key) => key !== "");
  const bytes = await readFile(resolve(io.cwd, file)).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot read the release ${file}: ${error.code ?? "error"}`);
  });
  await ready();
  try {
    const verified = verifyRelease(bytes, { trustedKeys });
    const registry = loadRegistryFromRelease(verified.registry);
    io.stdout(
      `ok: release ${verified.registry.sequence}, ${registry.integrations().length} manifests, registry ${registry.hash}, ` +
        `previous ${verified.registry.previous ?? "none"}, signed by ${verified.key}\n`,
    );
    return 0;
  } catch (error) {
    if (ReleaseError.isInstance(error)) {
      io.stderr(`refused (${error.code}): ${error.message}\n`);
      return 1;
    }
    if (RegistryError.isInstance(error)) {
      for (const issue of error.issues) io.stderr(`${issue.file}: ${issue.path}: ${issue.message}\n`);
      io.stderr(`refused (invalid_registry): ${error.issues.length} problem${error.issues.length === 1 ? "" : "s"} in the release's manifests\n`);
      return 1;
    }
    throw error;
  }
}

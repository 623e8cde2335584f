import { cp, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ready, signRelease, verifyRelease } from "@eleven-integrations/grants";
import { loadRegistry } from "@eleven-integrations/loader";
import { manifestFiles, manifestsDir } from "@eleven-integrations/manifests";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { CommandIo } from "./io.js";
import { main } from "./main.js";

let dir: string;
let out: string[];
let err: string[];
let io: CommandIo;
beforeAll(() => ready());
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cli-registry-"));
  out = [];
  err = [];
  io = { stdout: (text) => void out.push(text), stderr: (text) => void err.push(text), env: {}, cwd: dir };
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function releaseKey(name: string): Promise<{ file: string; publicKey: string }> {
  const file = join(dir, name);
  expect(await main(["keys", "release", "--out", file], io)).toBe(0);
  const publicKey = out.join("").trim();
  out.length = 0;
  err.length = 0;
  return { file, publicKey };
}

describe("integrations keys release", () => {
  it("writes an Ed25519 release key in a 0600 file and prints its public key", async () => {
    const { file, publicKey } = await releaseKey("release.json");
    expect(publicKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(await readFile(file, "utf8"));
    expect(saved.kind).toBe("release");
    expect(saved.publicKey).toBe(publicKey);
  });
});

describe("integrations registry sign and verify", () => {
  it("signs the shipped manifests, chains to --previous, and verifies with a trusted key", async () => {
    const key = await releaseKey("release.json");
    expect(await main(["registry", "sign", "--key", key.file, "--sequence", "1", "--out", "r1.json"], io)).toBe(0);
    const first = await readFile(join(dir, "r1.json"), "utf8");
    const verified = verifyRelease(first, { trustedKeys: [key.publicKey] });
    expect(verified.registry.hash).toBe(loadRegistry(manifestFiles).hash);
    expect(verified.registry.sequence).toBe(1);
    expect(verified.registry.previous).toBeNull();

    expect(await main(["registry", "sign", "--key", key.file, "--sequence", "2", "--previous", "r1.json", "--out", "r2.json"], io)).toBe(0);
    const second = JSON.parse(await readFile(join(dir, "r2.json"), "utf8"));
    expect(second.registry.previous).toBe(verified.registry.hash);

    out.length = 0;
    expect(await main(["registry", "verify", "--keys", `someone-else,${key.publicKey}`, "r2.json"], io)).toBe(0);
    expect(out.join("")).toMatch(/^ok: release 2, \d+ manifests, registry [0-9a-f]{64}/);
  });

  it("signs with several keys, each enough alone", async () => {
    const a = await releaseKey("a.json");
    const b = await releaseKey("b.json");
    expect(await main(["registry", "sign", "--key", a.file, "--key", b.file, "--sequence", "3"], io)).toBe(0);
    await writeFile(join(dir, "r.json"), out.join(""));
    expect(JSON.parse(out.join("")).signatures).toHaveLength(2);
    expect(await main(["registry", "verify", "--keys", b.publicKey, "r.json"], io)).toBe(0);
  });

  it("refuses to verify an unknown key, a changed byte, and a manifest that fails validation (exit 1, reason named)", async () => {
    const key = await releaseKey("release.json");
    const other = await releaseKey("other.json");
    expect(await main(["registry", "sign", "--key", key.file, "--sequence", "1", "--out", "r.json"], io)).toBe(0);
    err.length = 0;
    expect(await main(["registry", "verify", "--keys", other.publicKey, "r.json"], io)).toBe(1);
    expect(err.join("")).toMatch(/refused \(untrusted_key\)/);

    const text = await readFile(join(dir, "r.json"), "utf8");
    await writeFile(join(dir, "changed.json"), text.replace('"name":"', '"name":"X'));
    err.length = 0;
    expect(await main(["registry", "verify", "--keys", key.publicKey, "changed.json"], io)).toBe(1);
    expect(err.join("")).toMatch(/refused \(bad_signature\)/);

    // Signed properly, but a manifest in it fails validation.
    const document = JSON.parse(text);
    document.registry.integrations[0].ops = [];
    const secret = JSON.parse(await readFile(key.file, "utf8"));
    await writeFile(join(dir, "invalid.json"), signRelease(document.registry, [secret]));
    err.length = 0;
    expect(await main(["registry", "verify", "--keys", key.publicKey, "invalid.json"], io)).toBe(1);
    // An empty ops list also orphans the manifest's auth.identity: every problem is named before the verdict.
    expect(err.join("")).toMatch(/: ops: [^\n]+\n(?:[^\n]+\n)*refused \(invalid_registry\)/);
  });

  it("refuses to sign an invalid folder, a sequence not above --previous, and a member key", async () => {
    const key = await releaseKey("release.json");
    const folder = join(dir, "manifests");
    await cp(manifestsDir, folder, { recursive: true });
    const [first] = manifestFiles;
    await writeFile(join(folder, first!.file.split("/").pop()!), JSON.stringify({ ...(first!.json as object), ops: [] }));
    expect(await main(["registry", "sign", "--key", key.file, "--sequence", "1", folder], io)).toBe(1);
    expect(err.join("")).toMatch(/nothing signed/);
    expect(out.join("")).toBe("");

    expect(await main(["registry", "sign", "--key", key.file, "--sequence", "1", "--out", "r1.json"], io)).toBe(0);
    expect(await main(["registry", "sign", "--key", key.file, "--sequence", "1", "--previous", "r1.json"], io)).toBe(2);
    expect(err.join("")).toMatch(/must be above the previous release's 1/);
    expect(await main(["registry", "sign", "--key", key.file, "--sequence", "0"], io)).toBe(2);

    expect(await main(["keys", "member", "--out", join(dir, "member.json")], io)).toBe(0);
    expect(await main(["registry", "sign", "--key", join(dir, "member.json"), "--sequence", "1"], io)).toBe(2);
    expect(err.join("")).toMatch(/not a release key file/);
  });
});

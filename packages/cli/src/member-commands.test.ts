import { mkdtemp, readFile, rm, stat, chmod } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { argsDigest, generateBotKeys, openGrant, ready, renderConfirm, ReplayCache, verifyConfirmation } from "@eleven-integrations/grants";
import { loadRegistry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";
import { main } from "./main.js";
import type { CommandIo } from "./io.js";

const TOKEN = "ghp_test_token_never_printed_123";
const registry = loadRegistry(manifestFiles);

let dir: string;
let out: string[];
let err: string[];
let io: CommandIo;
beforeAll(() => ready());
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cli-keys-"));
  out = [];
  err = [];
  io = { stdout: (text) => void out.push(text), stderr: (text) => void err.push(text), env: { GITHUB_TOKEN: TOKEN }, cwd: dir };
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function memberKeyFile(): Promise<{ file: string; publicKey: string }> {
  const file = join(dir, "member.json");
  expect(await main(["keys", "member", "--out", file], io)).toBe(0);
  const publicKey = out.join("").trim();
  out.length = 0;
  err.length = 0;
  return { file, publicKey };
}

describe("integrations keys", () => {
  it("writes a 0600 key file, prints only the public key, and never overwrites", async () => {
    const { file, publicKey } = await memberKeyFile();
    expect(publicKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(await readFile(file, "utf8"));
    expect(saved).toMatchObject({ kind: "member", publicKey });
    expect(await main(["keys", "member", "--out", file], io)).toBe(2);
    expect(err.join("")).toContain("not overwriting");
  });

  it("refuses to run without --out or with an unknown kind", async () => {
    expect(await main(["keys", "bot"], io)).toBe(2);
    expect(await main(["keys", "admin", "--out", join(dir, "x")], io)).toBe(2);
  });
});

describe("integrations grant", () => {
  it("seals a grant to the bot with the manifest hash, reading the token from the environment", async () => {
    const member = await memberKeyFile();
    const bot = generateBotKeys();
    const code = await main(
      ["grant", "--member", member.file, "--bot", bot.publicKey, "--integration", "github", "--access", "read", "--token-env", "GITHUB_TOKEN", "--ttl", "600"],
      io,
    );
    expect(code).toBe(0);
    const sealed = out.join("").trim();
    expect(sealed.startsWith("eg1.")).toBe(true);
    const grant = openGrant(sealed, { bot, trustedMembers: [member.publicKey] });
    expect(grant).toMatchObject({ integration: "github", access: "read", manifest_hash: registry.manifestHash("github"), cred: { kind: "pat", token: TOKEN } });
    expect(grant.exp - grant.iat).toBe(600);
    expect(err.join("") + out.join("")).not.toContain(TOKEN);
  });

  it("refuses a missing token, a write op in a read grant, an unknown op, and a key file others can read", async () => {
    const member = await memberKeyFile();
    const bot = generateBotKeys().publicKey;
    const base = ["grant", "--member", member.file, "--bot", bot, "--integration", "github"];
    expect(await main([...base, "--access", "read", "--token-env", "NOPE"], io)).toBe(2);
    expect(err.join("")).toContain("environment variable NOPE");
    const writeOp = registry.get("github")?.ops.find((op) => op.access === "write")?.id as string;
    expect(await main([...base, "--access", "read", "--op", writeOp, "--token-env", "GITHUB_TOKEN"], io)).toBe(2);
    expect(err.join("")).toContain("a read grant can never run it");
    expect(await main([...base, "--access", "write", "--op", "nope.nope", "--token-env", "GITHUB_TOKEN"], io)).toBe(2);
    await chmod(member.file, 0o644);
    expect(await main([...base, "--access", "read", "--token-env", "GITHUB_TOKEN"], io)).toBe(2);
    expect(err.join("")).toContain("readable by others");
    expect(out).toEqual([]);
  });
});

describe("integrations confirm", () => {
  it("shows the rendered line and signs a confirmation the bot can verify", async () => {
    const member = await memberKeyFile();
    const bot = generateBotKeys();
    expect(await main(["grant", "--member", member.file, "--bot", bot.publicKey, "--integration", "github", "--access", "write", "--token-env", "GITHUB_TOKEN"], io)).toBe(0);
    const grant = openGrant(out.join("").trim(), { bot, trustedMembers: [member.publicKey] });
    out.length = 0;
    err.length = 0;
    const operation = registry.integrations().find((m) => m.id === "github")?.ops.find((op) => op.access === "write");
    const args = Object.fromEntries(Object.keys(operation?.args ?? {}).map((name) => [name, `v-${name}`]));
    const argv = ["confirm", "--member", member.file, "--gid", grant.gid, "github", operation?.id as string];
    for (const [name, value] of Object.entries(args)) argv.push("--arg", `${name}=${value}`);
    expect(await main([...argv, "--expect-digest", argsDigest(args)], io)).toBe(0);
    const line = renderConfirm(operation?.confirm as string, args);
    expect(err.join("")).toBe(`confirming: ${line}\n`);
    const token = out.join("").trim();
    expect(() => verifyConfirmation(token, { grant, op: operation?.id as string, args, line, replay: new ReplayCache() })).not.toThrow();
  });

  it("signs nothing when the args are not the ones the bot asked for", async () => {
    const member = await memberKeyFile();
    const write = registry.get("github")?.ops.find((op) => op.access === "write");
    const [name] = Object.keys(write?.args ?? {});
    const code = await main(["confirm", "--member", member.file, "--gid", "g", "github", write?.id as string, "--arg", `${name}=x`, "--expect-digest", argsDigest({ [name as string]: "y" })], io);
    expect(code).toBe(1);
    expect(out).toEqual([]);
  });
});

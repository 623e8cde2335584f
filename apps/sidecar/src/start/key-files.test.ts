import { chmod, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { generateBotKeys, generateMemberKeys } from "@eleven-integrations/grants";
import { describe, expect, it } from "vitest";
import { loadOrCreateBotKeys, loadOrCreateCallerToken, loadTrustedMembers } from "./key-files.js";
import { temporaryDirectory } from "../__fixtures__/grant-kit.js";

const mode = async (path: string) => (await stat(path)).mode & 0o777;

describe("the bot key file", () => {
  it("is created 0600 on first start, in the CLI's key file format, and read back after", async () => {
    const path = join(await temporaryDirectory(), "bot-key.json");
    const first = await loadOrCreateBotKeys(path);
    expect(first.created).toBe(true);
    expect(await mode(path)).toBe(0o600);
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({ kind: "bot", ...first.keys });
    const second = await loadOrCreateBotKeys(path);
    expect(second).toEqual({ keys: first.keys, created: false });
  });

  it.each([0o644, 0o640, 0o604, 0o620, 0o602])("is refused with mode %o", async (fileMode) => {
    const path = join(await temporaryDirectory(), "bot-key.json");
    await loadOrCreateBotKeys(path);
    await chmod(path, fileMode);
    await expect(loadOrCreateBotKeys(path)).rejects.toMatchObject({ name: "SidecarStartError", code: "insecure_file" });
  });

  it("is refused when its halves do not belong together", async () => {
    const path = join(await temporaryDirectory(), "bot-key.json");
    const keys = { kind: "bot", publicKey: generateBotKeys().publicKey, secretKey: generateBotKeys().secretKey };
    await writeFile(path, JSON.stringify(keys), { mode: 0o600 });
    await expect(loadOrCreateBotKeys(path)).rejects.toMatchObject({ code: "invalid_file" });
  });

  const memberKeys = generateMemberKeys();
  const barePair = generateBotKeys();
  it.each([
    ["not JSON", "{", ""],
    ["a member key file", JSON.stringify({ kind: "member", ...memberKeys }), memberKeys.secretKey],
    ["a bare pair without its kind", JSON.stringify(barePair), barePair.secretKey],
  ])("is refused when it is %s, without quoting it", async (_name, text, secret) => {
    const path = join(await temporaryDirectory(), "bot-key.json");
    await writeFile(path, text, { mode: 0o600 });
    const error = await loadOrCreateBotKeys(path).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "invalid_file" });
    expect((error as Error).message).toContain(path);
    if (secret !== "") expect((error as Error).message).not.toContain(secret);
  });

  it("is refused when it is not a regular file", async () => {
    const dir = await temporaryDirectory();
    await expect(loadOrCreateBotKeys(dir)).rejects.toMatchObject({ code: "not_a_file" });
  });
});

describe("the caller token file", () => {
  it("is created 0600 with 32 random bytes, and read back trimmed", async () => {
    const path = join(await temporaryDirectory(), "caller-token");
    const first = await loadOrCreateCallerToken(path);
    expect(first.created).toBe(true);
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await mode(path)).toBe(0o600);
    expect(await loadOrCreateCallerToken(path)).toEqual({ token: first.token, created: false });
  });

  it("keeps a token the operator wrote", async () => {
    const path = join(await temporaryDirectory(), "caller-token");
    await writeFile(path, "  operator-chosen-token-1234\n", { mode: 0o600 });
    expect(await loadOrCreateCallerToken(path)).toEqual({ token: "operator-chosen-token-1234", created: false });
  });

  it("is refused when others can read it", async () => {
    const path = join(await temporaryDirectory(), "caller-token");
    await writeFile(path, "operator-chosen-token-1234\n", { mode: 0o600 });
    await chmod(path, 0o644);
    await expect(loadOrCreateCallerToken(path)).rejects.toMatchObject({ code: "insecure_file" });
  });

  it.each([
    ["too short", "short"],
    ["two words", "operator chosen token 1234"],
    ["empty", "\n"],
  ])("is refused when %s", async (_name, text) => {
    const path = join(await temporaryDirectory(), "caller-token");
    await writeFile(path, text, { mode: 0o600 });
    await expect(loadOrCreateCallerToken(path)).rejects.toMatchObject({ code: "invalid_file" });
  });
});

describe("the trusted members file", () => {
  it("is undefined when missing: no one is trusted, and no file is created", async () => {
    const path = join(await temporaryDirectory(), "trusted-members.json");
    expect(await loadTrustedMembers(path)).toBeUndefined();
    await expect(stat(path)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("reads a JSON array of member public keys; a world-readable file is fine", async () => {
    const path = join(await temporaryDirectory(), "trusted-members.json");
    const keys = [generateMemberKeys().publicKey, generateMemberKeys().publicKey];
    await writeFile(path, JSON.stringify(keys), { mode: 0o644 });
    expect(await loadTrustedMembers(path)).toEqual(keys);
  });

  it("is refused when group or others can write it", async () => {
    const path = join(await temporaryDirectory(), "trusted-members.json");
    await writeFile(path, "[]", { mode: 0o600 });
    await chmod(path, 0o664);
    await expect(loadTrustedMembers(path)).rejects.toMatchObject({ code: "insecure_file" });
  });

  it.each([
    ["an object", "{}"],
    ["a key that is not base64url", '["not a key"]'],
    ["a key of the wrong length", '["AAAA"]'],
    ["a number", "[1]"],
  ])("is refused when it holds %s", async (_name, text) => {
    const path = join(await temporaryDirectory(), "trusted-members.json");
    await writeFile(path, text, { mode: 0o600 });
    await expect(loadTrustedMembers(path)).rejects.toMatchObject({ code: "invalid_file" });
  });
});

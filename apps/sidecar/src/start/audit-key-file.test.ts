import { chmod, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ready } from "@eleven-integrations/grants";
import { describe, expect, it } from "vitest";
import { temporaryDirectory } from "../__fixtures__/grant-kit.js";
import { loadOrCreateAuditKey } from "./audit-key-file.js";

await ready();

describe("the audit key file", () => {
  it("is created on first load as 32 random bytes (0600) and read back unchanged after", async () => {
    const path = join(await temporaryDirectory(), "audit-key");
    const first = await loadOrCreateAuditKey(path);
    expect(first.created).toBe(true);
    expect(Buffer.from(first.key, "base64url")).toHaveLength(32);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await readFile(path, "utf8")).trim()).toBe(first.key);
    const second = await loadOrCreateAuditKey(path);
    expect(second).toEqual({ key: first.key, created: false });
    const other = await loadOrCreateAuditKey(join(await temporaryDirectory(), "audit-key"));
    expect(other.key).not.toBe(first.key);
  });

  it("is refused when group or others can read it, when malformed, or through a symbolic link", async () => {
    const dir = await temporaryDirectory();
    const path = join(dir, "audit-key");
    await loadOrCreateAuditKey(path);
    await chmod(path, 0o640);
    await expect(loadOrCreateAuditKey(path)).rejects.toMatchObject({ code: "insecure_file" });
    const short = join(dir, "short-key");
    await writeFile(short, "dG9vLXNob3J0\n", { mode: 0o600 });
    await expect(loadOrCreateAuditKey(short)).rejects.toMatchObject({ code: "invalid_file" });
    const link = join(dir, "linked-key");
    await symlink(short, link);
    await expect(loadOrCreateAuditKey(link)).rejects.toMatchObject({ code: "not_a_file" });
  });
});

import { createHash } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileStore } from "../files/file-store.js";
import { resolveFiles } from "./resolve-files.js";

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "sidecar-resolve-"));
});
afterEach(() => rm(home, { recursive: true, force: true }));

const bytes = Buffer.from("report body\n");
const sha256 = createHash("sha256").update(bytes).digest("hex");

describe("resolveFiles", () => {
  it("replaces a { sha256 } value with the stored file's name, type and base64; other args stay", async () => {
    const store = new FileStore({ dir: join(home, "files") });
    await store.put({ name: "report.txt", size: bytes.length, content_type: "text/plain", sha256 }, bytes);
    const resolved = await resolveFiles({ path: "/a.txt", file: { sha256 } }, store);
    expect(resolved).toEqual({
      ok: true,
      args: { path: "/a.txt", file: { name: "report.txt", content_type: "text/plain", base64: bytes.toString("base64") } },
    });
  });

  it("an unknown hash, or no file folder, is invalid_args naming the arg and the hash's prefix", async () => {
    const store = new FileStore({ dir: join(home, "files") });
    const unknown = "b".repeat(64);
    for (const folder of [store, undefined]) {
      const resolved = await resolveFiles({ file: { sha256: unknown } }, folder);
      expect(resolved).toMatchObject({ ok: false, error: { code: "invalid_args", message: expect.stringMatching(/arg "file" \(sha256 bbbbbbbbbbbb…\)/) } });
    }
  });

  it("a file whose bytes changed on disk is not sent", async () => {
    const dir = join(home, "files");
    const store = new FileStore({ dir });
    await store.put({ name: "report.txt", size: bytes.length, content_type: "text/plain", sha256 }, bytes);
    await writeFile(join(dir, sha256), "tampered\n");
    expect(await resolveFiles({ file: { sha256 } }, store)).toMatchObject({ ok: false, error: { code: "invalid_args" } });
  });

  it("leaves inline files, strings and lists as they came", async () => {
    const args = { file: { name: "a.txt", content_type: "text/plain", base64: "aGk=" }, tags: ["a"], text: "x" };
    expect(await resolveFiles(args, undefined)).toEqual({ ok: true, args });
  });
});

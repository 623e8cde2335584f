import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateReceiptKeys, ready, signReceipt } from "@eleven-integrations/grants";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { CommandIo } from "./io.js";
import { main } from "./main.js";

const INPUT = {
  gid: "AAAAAAAAAAAAAAAAAAAAAA",
  iss: `${"B".repeat(42)}A`,
  aud: `${"C".repeat(42)}A`,
  integration: "github",
  op: "issues.create",
  manifest_hash: "ab".repeat(32),
  args_digest: "A".repeat(43),
  line_digest: Buffer.alloc(32, 2).toString("base64url"),
  nonce: Buffer.alloc(16, 3).toString("base64url"),
  status: "ok" as const,
  http_status: 201,
  result_digest: Buffer.alloc(32, 4).toString("base64url"),
  audit_id: "0b7c6f0e-1d2a-4c8e-9f3b-5a6d7e8f9a0b",
  registry_hash: "cd".repeat(32),
  at: 1_800_000_000,
};

let dir: string;
let out: string[];
let err: string[];
let stdin = "";
let io: CommandIo;
beforeAll(() => ready());
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cli-receipt-"));
  out = [];
  err = [];
  io = { stdout: (text) => void out.push(text), stderr: (text) => void err.push(text), env: {}, cwd: dir, readStdin: async () => stdin };
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("integrations receipt verify", () => {
  it("prints the signed payload of a receipt read from a file with a trailing newline, or from standard input", async () => {
    const keys = generateReceiptKeys();
    const token = signReceipt(INPUT, { key: keys.secretKey });
    await writeFile(join(dir, "receipt"), `${token}\n`);
    expect(await main(["receipt", "verify", "--key", keys.publicKey, `@${join(dir, "receipt")}`], io)).toBe(0);
    expect(JSON.parse(out.join(""))).toEqual({ v: 1, typ: "receipt", ...INPUT, kid: keys.publicKey });
    out.length = 0;
    stdin = `${token}\n`;
    expect(await main(["receipt", "verify", "--key", keys.publicKey, "-"], io)).toBe(0);
    expect(JSON.parse(out.join(""))).toMatchObject({ op: "issues.create", http_status: 201 });
  });

  it("exits 1 with the reason for a tampered receipt, another sidecar's key and a token that is no receipt", async () => {
    const keys = generateReceiptKeys();
    const token = signReceipt(INPUT, { key: keys.secretKey });
    const bytes = Buffer.from(token.slice(4), "base64url");
    const edited = Buffer.from(bytes.subarray(64).toString("utf8").replace('"http_status":201', '"http_status":500'));
    const tampered = `ew1.${Buffer.concat([bytes.subarray(0, 64), edited]).toString("base64url")}`;
    await writeFile(join(dir, "tampered"), tampered);
    expect(await main(["receipt", "verify", "--key", keys.publicKey, `@${join(dir, "tampered")}`], io)).toBe(1);
    expect(err.join("")).toMatch(/bad_signature: the receipt's signature does not verify with this key/);
    expect(out).toEqual([]);
    err.length = 0;
    await writeFile(join(dir, "receipt"), token);
    expect(await main(["receipt", "verify", "--key", generateReceiptKeys().publicKey, `@${join(dir, "receipt")}`], io)).toBe(1);
    expect(err.join("")).toMatch(/bad_signature/);
    err.length = 0;
    await writeFile(join(dir, "grant"), "eg1.AAAA");
    expect(await main(["receipt", "verify", "--key", keys.publicKey, `@${join(dir, "grant")}`], io)).toBe(1);
    expect(err.join("")).toMatch(/malformed: a receipt starts with ew1\./);
  });

  it("is a usage error without --key or the receipt, and refuses the token on the command line", async () => {
    expect(await main(["receipt", "verify", "@x"], io)).toBe(2);
    expect(await main(["receipt", "verify", "--key", "k"], io)).toBe(2);
    expect(await main(["receipt", "verify", "--key", "k", "ew1.AAAA"], io)).toBe(2);
  });
});

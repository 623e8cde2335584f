import { chmod, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { generateBotKeys, generateReceiptKeys, ready, receiptKeysFor, signReceipt, verifyReceipt } from "@eleven-integrations/grants";
import { describe, expect, it } from "vitest";
import { temporaryDirectory } from "../__fixtures__/grant-kit.js";
import { loadOrCreateReceiptKeys } from "./receipt-key-file.js";
import { startSidecar } from "./start-server.js";

await ready();
const BOT = generateBotKeys();

const RECEIPT = {
  gid: "AAAAAAAAAAAAAAAAAAAAAA",
  iss: "A".repeat(43),
  aud: "A".repeat(43),
  integration: "github",
  op: "issues.create",
  manifest_hash: "0".repeat(64),
  args_digest: "A".repeat(43),
  line_digest: "A".repeat(43),
  nonce: "AAAAAAAAAAAAAAAAAAAAAA",
  status: "ok" as const,
  http_status: 201,
  result_digest: "A".repeat(43),
  audit_id: "a-1",
  registry_hash: "0".repeat(64),
};

describe("the receipt key file", () => {
  it("is created on first load (0600, kind receipt) and read back unchanged, so old receipts still verify", async () => {
    const path = join(await temporaryDirectory(), "receipt-key.json");
    const first = await loadOrCreateReceiptKeys(path, BOT);
    expect(first.created).toBe(true);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({ kind: "receipt", ...first.keys });
    const second = await loadOrCreateReceiptKeys(path, BOT);
    expect(second).toEqual({ keys: first.keys, created: false });
    const token = signReceipt(RECEIPT, { key: first.keys.secretKey });
    expect(verifyReceipt(token, { key: second.keys.publicKey })).toMatchObject({ op: "issues.create" });
  });

  it("is refused when group or others can read it, or when its halves do not match", async () => {
    const dir = await temporaryDirectory();
    const path = join(dir, "receipt-key.json");
    await loadOrCreateReceiptKeys(path, BOT);
    await chmod(path, 0o644);
    await expect(loadOrCreateReceiptKeys(path, BOT)).rejects.toMatchObject({ code: "insecure_file" });
    const mixed = join(dir, "mixed.json");
    await writeFile(mixed, JSON.stringify({ kind: "receipt", publicKey: generateReceiptKeys().publicKey, secretKey: generateReceiptKeys().secretKey }), {
      mode: 0o600,
    });
    await expect(loadOrCreateReceiptKeys(mixed, BOT)).rejects.toMatchObject({ code: "invalid_file" });
    const wrongKind = join(dir, "bot.json");
    await writeFile(wrongKind, JSON.stringify({ kind: "bot", ...generateReceiptKeys() }), { mode: 0o600 });
    await expect(loadOrCreateReceiptKeys(wrongKind, BOT)).rejects.toMatchObject({ code: "invalid_file" });
  });

  it("holds the bot's one receipt key; a key an earlier release made is kept beside it and replaced (third review, finding 6)", async () => {
    const dir = await temporaryDirectory();
    const path = join(dir, "receipt-key.json");
    const own = generateReceiptKeys();
    await writeFile(path, JSON.stringify({ kind: "receipt", ...own }), { mode: 0o600 });
    const loaded = await loadOrCreateReceiptKeys(path, BOT);
    expect(loaded.keys).toEqual(receiptKeysFor(BOT));
    expect(loaded.previous).toEqual(own);
    expect(JSON.parse(await readFile(`${path}.previous`, "utf8"))).toEqual({ kind: "receipt", ...own });
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({ kind: "receipt", ...receiptKeysFor(BOT) });
  });

  it("is made by startSidecar in its home and published as receipt_key, the same after a restart", async () => {
    const home = await temporaryDirectory();
    const identity = async () => {
      const sidecar = await startSidecar({ home, port: 0 });
      try {
        const token = (await readFile(sidecar.callerTokenFile, "utf8")).trim();
        const response = await sidecar.app.inject({ method: "GET", url: "/v1/identity", headers: { authorization: `Bearer ${token}` } });
        return (response.json() as { receipt_key: string }).receipt_key;
      } finally {
        await sidecar.close();
      }
    };
    const first = await identity();
    const saved = JSON.parse(await readFile(join(home, "receipt-key.json"), "utf8")) as { publicKey: string };
    expect(first).toBe(saved.publicKey);
    expect((await stat(join(home, "receipt-key.json"))).mode & 0o777).toBe(0o600);
    expect(await identity()).toBe(first);
  });
});

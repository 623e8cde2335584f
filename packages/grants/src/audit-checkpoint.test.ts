import { beforeAll, describe, expect, it } from "vitest";
import { signAuditCheckpoint, verifyAuditCheckpoint } from "./audit-checkpoint.js";
import { GrantError } from "./grant-error.js";
import type { KeyPair } from "./keys.js";
import { generateReceiptKeys } from "./receipt.js";
import { ready } from "./sodium.js";

let keys: KeyPair;
let other: KeyPair;
const HEAD = "ab".repeat(32);

beforeAll(async () => {
  await ready();
  keys = generateReceiptKeys();
  other = generateReceiptKeys();
});

function code(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (GrantError.isInstance(error)) return error.code;
    throw error;
  }
  throw new Error("expected a GrantError");
}

describe("audit checkpoints", () => {
  it("sign the journal's line count and head, and verify with the key they name or the one given", () => {
    const line = signAuditCheckpoint({ lines: 12, head: HEAD, time: "2026-12-07T22:00:00.000Z" }, keys);
    expect(JSON.parse(line)).toMatchObject({ kind: "audit-checkpoint", lines: 12, head: HEAD, key: keys.publicKey });
    expect(verifyAuditCheckpoint(line)).toMatchObject({ lines: 12, head: HEAD, time: "2026-12-07T22:00:00.000Z" });
    expect(verifyAuditCheckpoint(line, { key: keys.publicKey }).lines).toBe(12);
    expect(code(() => verifyAuditCheckpoint(line, { key: other.publicKey }))).toBe("mismatch");
  });

  it("refuse a checkpoint changed after signing: fewer lines, another head, another signer's key", () => {
    const line = signAuditCheckpoint({ lines: 12, head: HEAD }, keys);
    expect(code(() => verifyAuditCheckpoint(line.replace('"lines":12', '"lines":9')))).toBe("bad_signature");
    expect(code(() => verifyAuditCheckpoint(line.replace(HEAD, "cd".repeat(32))))).toBe("bad_signature");
    expect(code(() => verifyAuditCheckpoint(line.replace(keys.publicKey, other.publicKey)))).toBe("bad_signature");
    expect(code(() => verifyAuditCheckpoint(line.replace('"kind":"audit-checkpoint"', '"kind":"other"')))).toBe("malformed");
    expect(code(() => verifyAuditCheckpoint("{not json"))).toBe("malformed");
    expect(code(() => signAuditCheckpoint({ lines: 0, head: HEAD }, keys))).toBe("malformed");
  });
});

// Receipts and the keyed audit digest against sodium-native, an implementation of libsodium that is
// not libsodium-wrappers, with the signed message built by hand: our bytes are what the README says.
import { createRequire } from "node:module";
import { canonicalJson } from "@eleven-integrations/schema";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { keyedArgsDigest, resultDigest } from "./digest.js";
import { GrantError } from "./grant-error.js";
import type { KeyPair } from "./keys.js";
import type { ReceiptInput } from "./receipt-payload.js";
import { generateReceiptKeys, signReceipt, verifyReceipt } from "./receipt.js";
import { ready } from "./sodium.js";

interface SodiumNative {
  crypto_sign_keypair(publicKey: Buffer, secretKey: Buffer): void;
  crypto_sign_detached(signature: Buffer, message: Buffer, secretKey: Buffer): void;
  crypto_sign_verify_detached(signature: Buffer, message: Buffer, publicKey: Buffer): boolean;
  crypto_generichash(out: Buffer, input: Buffer, key?: Buffer): void;
  randombytes_buf(buffer: Buffer): void;
}
const native = createRequire(import.meta.url)("sodium-native") as SodiumNative;

const buffer = (text: string): Buffer => Buffer.from(text, "base64url");
const random = (bytes: number): string => {
  const out = Buffer.alloc(bytes);
  native.randombytes_buf(out);
  return out.toString("base64url");
};

function receiptMessage(payload: Buffer): Buffer {
  const context = Buffer.from("eleven.receipt.v1");
  const lengths = Buffer.alloc(8);
  lengths.writeUInt32BE(context.length, 0);
  lengths.writeUInt32BE(payload.length, 4);
  return Buffer.concat([lengths.subarray(0, 4), context, lengths.subarray(4), payload]);
}

let sidecar: KeyPair;

beforeAll(async () => {
  await ready();
  sidecar = generateReceiptKeys();
});

const input = (overrides: Partial<ReceiptInput> = {}): ReceiptInput => ({
  gid: random(16),
  iss: random(32),
  aud: random(32),
  integration: "stripe",
  op: "refunds.create",
  manifest_hash: "ab".repeat(32),
  args_digest: random(32),
  line_digest: random(32),
  nonce: random(16),
  status: "ok",
  http_status: 200,
  result_digest: resultDigest({ id: "re_123", amount: 500 }),
  at: 1_767_225_600,
  audit_id: "0b6f7c1e-2d3a-4b5c-8d9e-0f1a2b3c4d5e",
  registry_hash: "cd".repeat(32),
  ...overrides,
});

describe("receipts against sodium-native", () => {
  it("ours verify there over the hand-built message", () => {
    const fields = input();
    const token = signReceipt(fields, { key: sidecar.secretKey });
    const bytes = buffer(token.slice(4));
    const payload = bytes.subarray(64);
    expect(payload.toString("utf8")).toBe(canonicalJson({ v: 1, typ: "receipt", ...fields, kid: sidecar.publicKey }));
    expect(native.crypto_sign_verify_detached(bytes.subarray(0, 64), receiptMessage(payload), buffer(sidecar.publicKey))).toBe(true);
  });

  it("theirs verify here", () => {
    const publicKey = Buffer.alloc(32);
    const secretKey = Buffer.alloc(64);
    native.crypto_sign_keypair(publicKey, secretKey);
    const expected = { v: 1, typ: "receipt", ...input(), kid: publicKey.toString("base64url") };
    const payload = Buffer.from(canonicalJson(expected));
    const signature = Buffer.alloc(64);
    native.crypto_sign_detached(signature, receiptMessage(payload), secretKey);
    const token = `ew1.${Buffer.concat([signature, payload]).toString("base64url")}`;
    expect(verifyReceipt(token, { key: publicKey.toString("base64url") })).toEqual(expected);
  });

  it("keyedArgsDigest is sodium-native's keyed BLAKE2b-256 of the RFC 8785 args", () => {
    const key = random(32);
    const args = { amount: "500", charge: "ch_1", reason: "requested_by_customer" };
    const out = Buffer.alloc(32);
    native.crypto_generichash(out, Buffer.from(canonicalJson(args)), buffer(key));
    expect(keyedArgsDigest(args, key)).toBe(out.toString("base64url"));
  });
});

describe("verifyReceipt on any input", () => {
  it("round-trips every valid receipt as RFC 8785 JSON, and refuses it whole after any one byte changes", () => {
    const status = fc.constantFrom<"ok" | "error">("ok", "error");
    const httpStatus = fc.option(fc.integer({ min: 100, max: 599 }), { nil: null });
    fc.assert(
      fc.property(status, httpStatus, fc.nat(), fc.stringMatching(/^[A-Za-z0-9._:-]{1,40}$/), fc.nat(), (state, code, at, auditId, flip) => {
        const fields = input({ status: state, http_status: code, at, audit_id: auditId });
        const token = signReceipt(fields, { key: sidecar.secretKey });
        expect(verifyReceipt(token, { key: sidecar.publicKey })).toEqual({ v: 1, typ: "receipt", ...fields, kid: sidecar.publicKey });
        const bytes = buffer(token.slice(4));
        expect(bytes.subarray(64).toString("utf8")).toBe(canonicalJson({ v: 1, typ: "receipt", ...fields, kid: sidecar.publicKey }));
        bytes[flip % bytes.length] = (bytes[flip % bytes.length] as number) ^ (1 + (flip % 255));
        expect(() => verifyReceipt(`ew1.${bytes.toString("base64url")}`, { key: sidecar.publicKey })).toThrow(GrantError);
      }),
      { numRuns: 150 },
    );
  });

  it("throws only GrantError for any string", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 300 }),
          fc.string({ maxLength: 300 }).map((text) => `ew1.${text}`),
        ),
        (token) => {
          try {
            verifyReceipt(token, { key: sidecar.publicKey });
          } catch (error) {
            expect(GrantError.isInstance(error)).toBe(true);
            return;
          }
          throw new Error("a random string verified as a receipt");
        },
      ),
    );
  });
});

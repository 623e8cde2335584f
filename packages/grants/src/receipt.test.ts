import { canonicalJson } from "@eleven-integrations/schema";
import sodium from "libsodium-wrappers";
import { beforeAll, describe, expect, it } from "vitest";
import { MANIFEST_HASH, NOW, payloadBytes, refusal, thrown } from "./__fixtures__/forge.js";
import { fromBase64Url, toBase64Url } from "./base64url.js";
import { blake2b256Base64Url, resultDigest } from "./digest.js";
import type { KeyPair } from "./keys.js";
import { MAX_RECEIPT_LENGTH, type ReceiptInput } from "./receipt-payload.js";
import { generateReceiptKeys, signReceipt, verifyReceipt } from "./receipt.js";
import { CONFIRM_CONTEXT, GRANT_CONTEXT, RECEIPT_CONTEXT, REVOKE_CONTEXT, concatBytes, signedMessage } from "./signed-message.js";
import { ready } from "./sodium.js";

let sidecar: KeyPair;
let otherSidecar: KeyPair;

beforeAll(async () => {
  await ready();
  sidecar = generateReceiptKeys();
  otherSidecar = generateReceiptKeys();
});

const DATA = { number: 42, html_url: "https://github.com/octo/hello/issues/42", title: "Fix the bug" };

function input(overrides: Partial<ReceiptInput> = {}): ReceiptInput {
  return {
    gid: toBase64Url(new Uint8Array(16).fill(1)),
    iss: toBase64Url(new Uint8Array(32).fill(5)),
    aud: toBase64Url(new Uint8Array(32).fill(6)),
    integration: "github",
    op: "issues.create",
    manifest_hash: MANIFEST_HASH,
    args_digest: toBase64Url(new Uint8Array(32).fill(2)),
    line_digest: toBase64Url(new Uint8Array(32).fill(3)),
    nonce: toBase64Url(new Uint8Array(16).fill(4)),
    status: "ok",
    http_status: 201,
    result_digest: resultDigest(DATA),
    at: NOW,
    audit_id: "5b0d8c1e-6c55-4d0f-9a8e-8f3b8f9c1a2b",
    registry_hash: "fedcba9876543210".repeat(4),
    ...overrides,
  };
}

/** A token over any payload bytes, signed with any context and key. */
function forgeReceipt(payload: string | object, secretKey: string, context = RECEIPT_CONTEXT): string {
  const bytes = payloadBytes(payload);
  const signature = sodium.crypto_sign_detached(signedMessage([context, bytes]), fromBase64Url(secretKey));
  return `ew1.${toBase64Url(concatBytes(signature, bytes))}`;
}

describe("receipts", () => {
  it("round trip: the verifier gets back exactly what was signed, with v and typ", () => {
    const token = signReceipt(input(), { key: sidecar.secretKey });
    expect(token.startsWith("ew1.")).toBe(true);
    expect(verifyReceipt(token, { key: sidecar.publicKey })).toEqual({ v: 1, typ: "receipt", ...input(), kid: sidecar.publicKey });
  });

  it("carries its payload as RFC 8785 JSON after the 64-byte signature, signed over the length-prefixed receipt context", () => {
    const token = signReceipt(input(), { key: sidecar.secretKey });
    const bytes = fromBase64Url(token.slice(4));
    const payload = bytes.subarray(64);
    expect(new TextDecoder().decode(payload)).toBe(canonicalJson({ v: 1, typ: "receipt", ...input(), kid: sidecar.publicKey }));
    const context = new TextEncoder().encode("eleven.receipt.v1");
    const message = new Uint8Array(4 + context.length + 4 + payload.length);
    const view = new DataView(message.buffer);
    view.setUint32(0, context.length);
    message.set(context, 4);
    view.setUint32(4 + context.length, payload.length);
    message.set(payload, 8 + context.length);
    expect(sodium.crypto_sign_verify_detached(bytes.subarray(0, 64), message, fromBase64Url(sidecar.publicKey))).toBe(true);
  });

  it("a write under a standing approval names it (aid), written in its canonical place; one without keeps its bytes", () => {
    const aid = toBase64Url(new Uint8Array(16).fill(9));
    const token = signReceipt(input({ aid, account: { id: "1", name: "octocat" } }), { key: sidecar.secretKey });
    const payload = new TextDecoder().decode(fromBase64Url(token.slice(4)).subarray(64));
    expect(payload).toBe(canonicalJson({ v: 1, typ: "receipt", ...input({ aid, account: { id: "1", name: "octocat" } }), kid: sidecar.publicKey }));
    expect(verifyReceipt(token, { key: sidecar.publicKey }).aid).toBe(aid);
    expect(thrown(() => signReceipt(input({ aid: "short" }), { key: sidecar.secretKey }))).toMatchObject({ code: "malformed" });
  });

  it("a write with no answer (outcome unknown) has a null http_status and the digest of null", () => {
    const token = signReceipt(input({ status: "error", http_status: null, result_digest: resultDigest(undefined) }), { key: sidecar.secretKey });
    const payload = verifyReceipt(token, { key: sidecar.publicKey });
    expect(payload.http_status).toBeNull();
    expect(payload.result_digest).toBe(blake2b256Base64Url("null"));
  });

  it("defaults `at` to the clock", () => {
    const { at: _at, ...withoutAt } = input();
    const before = Math.floor(Date.now() / 1000);
    const payload = verifyReceipt(signReceipt(withoutAt, { key: sidecar.secretKey }), { key: sidecar.publicKey });
    expect(payload.at).toBeGreaterThanOrEqual(before);
    expect(payload.at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
  });

  it("refuses a tampered payload byte (bad_signature), wherever the byte is", () => {
    const token = signReceipt(input(), { key: sidecar.secretKey });
    const bytes = fromBase64Url(token.slice(4));
    for (const index of [64, 64 + 30, bytes.length - 2, 10]) {
      const tampered = Uint8Array.from(bytes);
      tampered[index] = (tampered[index] as number) ^ 1;
      expect(refusal(() => verifyReceipt(`ew1.${toBase64Url(tampered)}`, { key: sidecar.publicKey }))).toBe("bad_signature");
    }
  });

  it("refuses a changed status or digest re-encoded by hand (bad_signature)", () => {
    const token = signReceipt(input({ status: "error", http_status: 500 }), { key: sidecar.secretKey });
    const bytes = fromBase64Url(token.slice(4));
    const text = new TextDecoder().decode(bytes.subarray(64)).replace('"status":"error"', '"status":"ok"   ').replace("500", "201");
    const forged = `ew1.${toBase64Url(concatBytes(bytes.subarray(0, 64), new TextEncoder().encode(text)))}`;
    expect(refusal(() => verifyReceipt(forged, { key: sidecar.publicKey }))).toBe("bad_signature");
  });

  it("refuses a receipt checked with another sidecar's key (bad_signature)", () => {
    const token = signReceipt(input(), { key: sidecar.secretKey });
    expect(refusal(() => verifyReceipt(token, { key: otherSidecar.publicKey }))).toBe("bad_signature");
  });

  it("refuses a wrong prefix, bad base64url, a cut token and a bad key (malformed)", () => {
    const token = signReceipt(input(), { key: sidecar.secretKey });
    for (const bad of [`ec1.${token.slice(4)}`, `eg1.${token.slice(4)}`, token.slice(4), `${token}=`, `ew1.${token.slice(4, 60)}`, "ew1.", 42]) {
      expect(refusal(() => verifyReceipt(bad as string, { key: sidecar.publicKey }))).toBe("malformed");
    }
    expect(refusal(() => verifyReceipt(token, { key: sidecar.secretKey }))).toBe("malformed");
    expect(refusal(() => signReceipt(input(), { key: sidecar.publicKey }))).toBe("malformed");
  });

  it("refuses an oversize token before decoding it (malformed)", () => {
    const huge = `ew1.${"A".repeat(MAX_RECEIPT_LENGTH)}`;
    expect(thrown(() => verifyReceipt(huge, { key: sidecar.publicKey })).message).toContain(`${MAX_RECEIPT_LENGTH}`);
    expect(refusal(() => verifyReceipt(huge, { key: sidecar.publicKey }))).toBe("malformed");
  });

  it("domain separation: the same payload signed with the grant, confirmation or revocation context is not a receipt", () => {
    const payload = { v: 1, typ: "receipt", ...input(), kid: sidecar.publicKey };
    expect(verifyReceipt(forgeReceipt(payload, sidecar.secretKey), { key: sidecar.publicKey })).toEqual(payload);
    for (const context of [GRANT_CONTEXT, CONFIRM_CONTEXT, REVOKE_CONTEXT]) {
      expect(refusal(() => verifyReceipt(forgeReceipt(payload, sidecar.secretKey, context), { key: sidecar.publicKey }))).toBe("bad_signature");
    }
  });

  it("parses strictly, even when properly signed: unknown or missing keys, wrong types, non-canonical bytes (malformed)", () => {
    const good = { v: 1, typ: "receipt", ...input(), kid: sidecar.publicKey };
    const { audit_id: _audit, ...missing } = good;
    const cases: (string | object)[] = [
      { ...good, extra: 1 },
      missing,
      { ...good, v: 2 },
      { ...good, typ: "grant" },
      { ...good, status: "maybe" },
      { ...good, http_status: 200.5 },
      { ...good, http_status: 99 },
      { ...good, at: -1 },
      { ...good, result_digest: "short" },
      { ...good, manifest_hash: MANIFEST_HASH.toUpperCase() },
      { ...good, audit_id: "has space" },
      JSON.stringify(good), // key order not canonical
      `${canonicalJson(good)} `,
      "[1]",
      "not json",
    ];
    for (const payload of cases) {
      expect(refusal(() => verifyReceipt(forgeReceipt(payload, sidecar.secretKey), { key: sidecar.publicKey }))).toBe("malformed");
    }
    expect(thrown(() => verifyReceipt(forgeReceipt({ ...good, status: "maybe" }, sidecar.secretKey), { key: sidecar.publicKey })).message).toBe(
      "receipt payload `status` is missing or invalid",
    );
  });

  it("signReceipt refuses what verifyReceipt would refuse (malformed), naming the field", () => {
    expect(thrown(() => signReceipt(input({ op: "Issues create" }), { key: sidecar.secretKey })).message).toContain("`op`");
    expect(refusal(() => signReceipt({ ...input(), extra: "x" } as ReceiptInput, { key: sidecar.secretKey }))).toBe("malformed");
    expect(refusal(() => signReceipt(input({ at: 1.5 }), { key: sidecar.secretKey }))).toBe("malformed");
  });
});

describe("resultDigest", () => {
  it("is BLAKE2b-256 of the RFC 8785 form of the data: key order does not matter, any change does", () => {
    expect(resultDigest({ b: 1, a: [1, "x"] })).toBe(blake2b256Base64Url('{"a":[1,"x"],"b":1}'));
    expect(resultDigest({ a: [1, "x"], b: 1 })).toBe(resultDigest({ b: 1, a: [1, "x"] }));
    expect(resultDigest({ a: [1, "x"], b: 2 })).not.toBe(resultDigest({ a: [1, "x"], b: 1 }));
    expect(resultDigest("text answer")).toBe(blake2b256Base64Url('"text answer"'));
  });
});

describe("receipts say who (third review, finding 6)", () => {
  it("name the member, the bot and the account, and the key that signed them", () => {
    const account = { id: "583231", name: "Octo “Cat” \\ 🐙" };
    const payload = verifyReceipt(signReceipt(input({ account }), { key: sidecar.secretKey }), { key: sidecar.publicKey });
    expect(payload).toMatchObject({ iss: input().iss, aud: input().aud, account, kid: sidecar.publicKey });
  });

  it("a payload naming another key than the one it verifies with is refused (mismatch)", () => {
    const payload = { v: 1, typ: "receipt", ...input(), kid: otherSidecar.publicKey };
    expect(refusal(() => verifyReceipt(forgeReceipt(payload, sidecar.secretKey), { key: sidecar.publicKey }))).toBe("mismatch");
  });

  it("every sidecar of a bot derives one receipt key from the bot key; another bot's differs", async () => {
    const { generateBotKeys } = await import("./keys.js");
    const { receiptKeysFor } = await import("./receipt.js");
    const bot = generateBotKeys();
    const first = receiptKeysFor(bot);
    expect(receiptKeysFor({ ...bot })).toEqual(first);
    expect(receiptKeysFor(generateBotKeys()).publicKey).not.toBe(first.publicKey);
    expect(first.publicKey).not.toBe(bot.publicKey);
    const token = signReceipt(input(), { key: first.secretKey });
    expect(verifyReceipt(token, { key: receiptKeysFor(bot).publicKey }).kid).toBe(first.publicKey);
  });
});

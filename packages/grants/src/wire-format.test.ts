import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { canonicalJson } from "@eleven-integrations/schema";
import sodium from "libsodium-wrappers";
import { beforeAll, describe, expect, it } from "vitest";
import { MANIFEST_HASH } from "./__fixtures__/forge.js";
import { fromBase64Url, toBase64Url } from "./base64url.js";
import type { ConfirmationPayload } from "./confirmation-payload.js";
import { argsDigest, blake2b256Base64Url } from "./digest.js";
import type { Grant } from "./grant-payload.js";
import { issueGrant, signGrantPayload } from "./issue-grant.js";
import type { KeyPair } from "./keys.js";
import { openGrant } from "./open-grant.js";
import { renderConfirm } from "./render-confirm.js";
import { ReplayCache } from "./replay-cache.js";
import { openSealed, sealToPublicKey } from "./seal.js";
import { secretboxOpen, secretboxSeal } from "./secretbox.js";
import { encodeConfirmation, signConfirmation } from "./sign-confirmation.js";
import { CONFIRM_CONTEXT, GRANT_CONTEXT, signedMessage } from "./signed-message.js";
import { ready } from "./sodium.js";
import { verifyConfirmation } from "./verify-confirmation.js";

/** The part of sodium-native these tests call: an implementation of libsodium that is not libsodium-wrappers. */
interface SodiumNative {
  crypto_box_SEALBYTES: number;
  crypto_sign_keypair(publicKey: Buffer, secretKey: Buffer): void;
  crypto_box_keypair(publicKey: Buffer, secretKey: Buffer): void;
  crypto_box_seal(out: Buffer, message: Buffer, publicKey: Buffer): void;
  crypto_box_seal_open(out: Buffer, ciphertext: Buffer, publicKey: Buffer, secretKey: Buffer): boolean;
  crypto_sign_detached(signature: Buffer, message: Buffer, secretKey: Buffer): void;
  crypto_sign_verify_detached(signature: Buffer, message: Buffer, publicKey: Buffer): boolean;
  crypto_generichash(out: Buffer, input: Buffer): void;
  crypto_secretbox_easy(out: Buffer, message: Buffer, nonce: Buffer, key: Buffer): void;
  crypto_secretbox_open_easy(out: Buffer, ciphertext: Buffer, nonce: Buffer, key: Buffer): boolean;
  randombytes_buf(buffer: Buffer): void;
}
const native = createRequire(import.meta.url)("sodium-native") as SodiumNative;

interface TestVector {
  now: number;
  member: KeyPair & { seed_hex: string };
  bot: KeyPair & { seed_hex: string };
  grant: { payload: Grant; payload_json: string; signed_message_hex: string; signature: string; token: string };
  confirmation: {
    op: string;
    args: Record<string, string>;
    args_canonical_json: string;
    template: string;
    line: string;
    payload: ConfirmationPayload;
    payload_json: string;
    signed_message_hex: string;
    signature: string;
    token: string;
  };
}
const vector = JSON.parse(readFileSync(new URL("./__fixtures__/test-vector.json", import.meta.url), "utf8")) as TestVector;

const b64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64url");
const buffer = (text: string): Buffer => Buffer.from(text, "base64url");

/** The signed message built by hand, independently of signed-message.ts. */
function nativeMessage(parts: Buffer[]): Buffer {
  return Buffer.concat(
    parts.flatMap((part) => {
      const length = Buffer.alloc(4);
      length.writeUInt32BE(part.length);
      return [length, part];
    }),
  );
}

function nativeMemberKeys(): KeyPair {
  const publicKey = Buffer.alloc(32);
  const secretKey = Buffer.alloc(64);
  native.crypto_sign_keypair(publicKey, secretKey);
  return { publicKey: b64(publicKey), secretKey: b64(secretKey) };
}

function nativeBotKeys(): KeyPair {
  const publicKey = Buffer.alloc(32);
  const secretKey = Buffer.alloc(32);
  native.crypto_box_keypair(publicKey, secretKey);
  return { publicKey: b64(publicKey), secretKey: b64(secretKey) };
}

beforeAll(ready);

describe("the committed test vector", () => {
  it("derives its keys from its seeds", () => {
    const member = sodium.crypto_sign_seed_keypair(Buffer.from(vector.member.seed_hex, "hex"));
    expect(toBase64Url(member.publicKey)).toBe(vector.member.publicKey);
    expect(toBase64Url(member.privateKey)).toBe(vector.member.secretKey);
    const bot = sodium.crypto_box_seed_keypair(Buffer.from(vector.bot.seed_hex, "hex"));
    expect(toBase64Url(bot.publicKey)).toBe(vector.bot.publicKey);
    expect(toBase64Url(bot.privateKey)).toBe(vector.bot.secretKey);
  });

  it("gives the same grant payload, signed message and signature", () => {
    expect(canonicalJson(vector.grant.payload)).toBe(vector.grant.payload_json);
    const payload = new TextEncoder().encode(vector.grant.payload_json);
    const message = signedMessage([GRANT_CONTEXT, fromBase64Url(vector.bot.publicKey), payload]);
    expect(Buffer.from(message).toString("hex")).toBe(vector.grant.signed_message_hex);
    const signed = signGrantPayload(vector.grant.payload, fromBase64Url(vector.member.secretKey));
    expect(toBase64Url(signed.signature)).toBe(vector.grant.signature);
    expect(new TextDecoder().decode(signed.payload)).toBe(vector.grant.payload_json);
  });

  it("opens the committed grant token with every field", () => {
    const grant = openGrant(vector.grant.token, { bot: vector.bot, trustedMembers: [vector.member.publicKey], now: vector.now });
    expect(grant).toEqual(vector.grant.payload);
  });

  it("gives the same confirmation digests, line, signed message and token, and verifies it", () => {
    const { confirmation } = vector;
    expect(canonicalJson(confirmation.args)).toBe(confirmation.args_canonical_json);
    expect(argsDigest(confirmation.args)).toBe(confirmation.payload.args_digest);
    expect(renderConfirm(confirmation.template, confirmation.args)).toBe(confirmation.line);
    expect(blake2b256Base64Url(confirmation.line)).toBe(confirmation.payload.line_digest);
    const message = signedMessage([CONFIRM_CONTEXT, new TextEncoder().encode(confirmation.payload_json)]);
    expect(Buffer.from(message).toString("hex")).toBe(confirmation.signed_message_hex);
    expect(encodeConfirmation(confirmation.payload, fromBase64Url(vector.member.secretKey))).toBe(confirmation.token);

    const grant = openGrant(vector.grant.token, { bot: vector.bot, trustedMembers: [vector.member.publicKey], now: vector.now });
    const options = { grant, op: confirmation.op, args: confirmation.args, line: confirmation.line, replay: new ReplayCache(), now: vector.now };
    expect(() => verifyConfirmation(confirmation.token, options)).not.toThrow();
  });
});

describe("against sodium-native", () => {
  it("opens and verifies a grant issued here", () => {
    const member = nativeMemberKeys();
    const bot = nativeBotKeys();
    const token = issueGrant({
      member,
      botPublicKey: bot.publicKey,
      integration: "github",
      manifestHash: MANIFEST_HASH,
      access: "read",
      ops: ["repos.list"],
      credential: { kind: "oauth", token: "gho_native" },
      ttlSeconds: 900,
      now: 1_700_000_000,
    });
    const sealed = buffer(token.slice(4));
    const plaintext = Buffer.alloc(sealed.length - native.crypto_box_SEALBYTES);
    expect(native.crypto_box_seal_open(plaintext, sealed, buffer(bot.publicKey), buffer(bot.secretKey))).toBe(true);
    const signature = plaintext.subarray(0, 64);
    const payload = plaintext.subarray(64);
    const message = nativeMessage([Buffer.from("eleven.grant.v1"), buffer(bot.publicKey), payload]);
    expect(native.crypto_sign_verify_detached(signature, message, buffer(member.publicKey))).toBe(true);
    const parsed = JSON.parse(payload.toString("utf8")) as Record<string, unknown>;
    expect(parsed).toMatchObject({ v: 1, typ: "grant", iss: member.publicKey, aud: bot.publicKey, access: "read", ops: ["repos.list"] });
    expect(Object.keys(parsed)).toEqual([...Object.keys(parsed)].sort());
  });

  it("opens here a grant built with sodium-native", () => {
    const member = nativeMemberKeys();
    const bot = nativeBotKeys();
    const now = 1_700_000_000;
    const gid = Buffer.alloc(16);
    native.randombytes_buf(gid);
    // Written in RFC 8785 key order by hand.
    const payload = Buffer.from(
      JSON.stringify({
        access: "write",
        aud: bot.publicKey,
        cred: { kind: "pat", token: "ghp_fromNative" },
        exp: now + 60,
        gid: b64(gid),
        iat: now,
        integration: "todoist",
        iss: member.publicKey,
        manifest_hash: MANIFEST_HASH,
        typ: "grant",
        v: 1,
      }),
    );
    const signature = Buffer.alloc(64);
    native.crypto_sign_detached(signature, nativeMessage([Buffer.from("eleven.grant.v1"), buffer(bot.publicKey), payload]), buffer(member.secretKey));
    const plaintext = Buffer.concat([signature, payload]);
    const sealed = Buffer.alloc(plaintext.length + native.crypto_box_SEALBYTES);
    native.crypto_box_seal(sealed, plaintext, buffer(bot.publicKey));

    const grant = openGrant(`eg1.${b64(sealed)}`, { bot, trustedMembers: [member.publicKey], now });
    expect(grant).toEqual({
      v: 1,
      typ: "grant",
      gid: b64(gid),
      iss: member.publicKey,
      aud: bot.publicKey,
      integration: "todoist",
      manifest_hash: MANIFEST_HASH,
      access: "write",
      cred: { kind: "pat", token: "ghp_fromNative" },
      iat: now,
      exp: now + 60,
    });

    // And a confirmation signed with sodium-native verifies here.
    const args = { content: "Buy milk", due: "tomorrow" };
    const line = renderConfirm("Add task {content} due {due}", args);
    const digest = (text: string): string => {
      const out = Buffer.alloc(32);
      native.crypto_generichash(out, Buffer.from(text, "utf8"));
      return b64(out);
    };
    const nonce = Buffer.alloc(16);
    native.randombytes_buf(nonce);
    const confirmation = Buffer.from(
      JSON.stringify({
        args_digest: digest('{"content":"Buy milk","due":"tomorrow"}'),
        exp: now + 300,
        gid: b64(gid),
        line_digest: digest(line),
        nonce: b64(nonce),
        op: "tasks.create",
        v: 1,
      }),
    );
    const confirmationSignature = Buffer.alloc(64);
    native.crypto_sign_detached(confirmationSignature, nativeMessage([Buffer.from("eleven.confirm.v1"), confirmation]), buffer(member.secretKey));
    const token = `ec1.${b64(Buffer.concat([confirmationSignature, confirmation]))}`;
    expect(() => verifyConfirmation(token, { grant, op: "tasks.create", args, line, replay: new ReplayCache(), now })).not.toThrow();

    // The other way round: a confirmation signed here verifies with sodium-native.
    const ours = buffer(signConfirmation({ member, grant, op: "tasks.create", args, line, now }).slice(4));
    const oursMessage = nativeMessage([Buffer.from("eleven.confirm.v1"), ours.subarray(64)]);
    expect(native.crypto_sign_verify_detached(ours.subarray(0, 64), oursMessage, buffer(member.publicKey))).toBe(true);
  });

  it("interoperates on sealed values and secretboxes", () => {
    const keys = nativeBotKeys();
    const sealed = buffer(sealToPublicKey("tokens for you", keys.publicKey));
    const opened = Buffer.alloc(sealed.length - native.crypto_box_SEALBYTES);
    expect(native.crypto_box_seal_open(opened, sealed, buffer(keys.publicKey), buffer(keys.secretKey))).toBe(true);
    expect(opened.toString("utf8")).toBe("tokens for you");

    const message = Buffer.from("sealed by sodium-native");
    const nativeSealed = Buffer.alloc(message.length + native.crypto_box_SEALBYTES);
    native.crypto_box_seal(nativeSealed, message, buffer(keys.publicKey));
    expect(Buffer.from(openSealed(b64(nativeSealed), keys)).toString("utf8")).toBe("sealed by sodium-native");

    const key = Buffer.alloc(32);
    native.randombytes_buf(key);
    const box = buffer(secretboxSeal("state", b64(key)));
    const state = Buffer.alloc(box.length - 24 - 16);
    expect(native.crypto_secretbox_open_easy(state, box.subarray(24), box.subarray(0, 24), key)).toBe(true);
    expect(state.toString("utf8")).toBe("state");
    const nonce = Buffer.alloc(24);
    native.randombytes_buf(nonce);
    const nativeBox = Buffer.alloc(message.length + 16);
    native.crypto_secretbox_easy(nativeBox, message, nonce, key);
    const reopened = secretboxOpen(b64(Buffer.concat([nonce, nativeBox])), [b64(key)]);
    expect(reopened && Buffer.from(reopened).toString("utf8")).toBe("sealed by sodium-native");
  });
});

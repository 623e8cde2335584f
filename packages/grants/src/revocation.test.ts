import sodium from "libsodium-wrappers";
import { beforeAll, describe, expect, it } from "vitest";
import { MANIFEST_HASH, NOW, payloadBytes } from "./__fixtures__/forge.js";
import { fromBase64Url, toBase64Url } from "./base64url.js";
import { issueGrant } from "./issue-grant.js";
import { generateBotKeys, generateMemberKeys, type KeyPair } from "./keys.js";
import { REVOCATION_PREFIX, revocationSignedBy, signRevocation, verifyRevocation } from "./revocation.js";
import { concatBytes, CONFIRM_CONTEXT, REVOKE_CONTEXT, signedMessage } from "./signed-message.js";
import { ready } from "./sodium.js";

let member: KeyPair;
let stranger: KeyPair;
let bot: KeyPair;
let otherBot: KeyPair;
let sealed: string;

function grantTo(botKey: string, issuer: KeyPair = member, ttlSeconds = 600): string {
  return issueGrant({
    member: issuer,
    botPublicKey: botKey,
    integration: "github",
    manifestHash: MANIFEST_HASH,
    access: "write",
    credential: { kind: "pat", token: "ghp_abc" },
    ttlSeconds,
    now: NOW,
  });
}

function code(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
}

/** A revocation over any payload bytes, signed with any context. */
function forge(payload: string | object, signer: KeyPair, context = REVOKE_CONTEXT): string {
  const bytes = payloadBytes(payload);
  const signature = sodium.crypto_sign_detached(signedMessage([context, bytes]), fromBase64Url(signer.secretKey));
  return REVOCATION_PREFIX + toBase64Url(concatBytes(signature, bytes));
}

beforeAll(async () => {
  await ready();
  member = generateMemberKeys();
  stranger = generateMemberKeys();
  bot = generateBotKeys();
  otherBot = generateBotKeys();
  sealed = grantTo(bot.publicKey);
});

describe("signRevocation and verifyRevocation", () => {
  it("lets the bot learn which grant its member revoked, and until when it matters", () => {
    const token = signRevocation({ member, grant: sealed, now: NOW + 10 });
    expect(token.startsWith("er1.")).toBe(true);
    const { grant, iat } = verifyRevocation(token, { bot, trustedMembers: [member.publicKey], now: NOW + 20 });
    expect(iat).toBe(NOW + 10);
    expect(grant.iss).toBe(member.publicKey);
    expect(grant.exp).toBe(NOW + 600);
    expect(grant.gid).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it("signs the length-prefixed message with the context eleven.revoke.v1 over the canonical payload", () => {
    const token = signRevocation({ member, grant: sealed, now: NOW });
    const bytes = fromBase64Url(token.slice(4));
    const payload = new TextDecoder().decode(bytes.subarray(64));
    expect(payload).toBe(`{"grant":"${sealed}","iat":${NOW},"typ":"revocation","v":1}`);
    const message = signedMessage([new TextEncoder().encode("eleven.revoke.v1"), bytes.subarray(64)]);
    expect(Array.from(message.subarray(0, 4))).toEqual([0, 0, 0, 16]);
    expect(sodium.crypto_sign_verify_detached(bytes.subarray(0, 64), message, fromBase64Url(member.publicKey))).toBe(true);
  });

  it("refuses a revocation signed by anyone but the grant's member, even a trusted one", () => {
    const token = signRevocation({ member: stranger, grant: sealed, now: NOW });
    expect(code(() => verifyRevocation(token, { bot, trustedMembers: [member.publicKey, stranger.publicKey], now: NOW }))).toBe("bad_signature");
  });

  it("refuses a signature made for another purpose (a confirmation's context)", () => {
    const token = forge({ v: 1, typ: "revocation", grant: sealed, iat: NOW }, member, CONFIRM_CONTEXT);
    expect(code(() => verifyRevocation(token, { bot, trustedMembers: [member.publicKey], now: NOW }))).toBe("bad_signature");
  });

  it("refuses a grant this bot cannot open, an untrusted member and an expired grant", () => {
    const foreign = signRevocation({ member, grant: grantTo(otherBot.publicKey), now: NOW });
    expect(code(() => verifyRevocation(foreign, { bot, trustedMembers: [member.publicKey], now: NOW }))).toBe("not_for_this_bot");
    const token = signRevocation({ member, grant: sealed, now: NOW });
    expect(code(() => verifyRevocation(token, { bot, trustedMembers: [stranger.publicKey], now: NOW }))).toBe("untrusted_member");
    expect(code(() => verifyRevocation(token, { bot, trustedMembers: [member.publicKey], now: NOW + 600 + 61 }))).toBe("expired");
  });

  it("refuses a revocation signed in the future", () => {
    const token = signRevocation({ member, grant: sealed, now: NOW + 120 });
    expect(code(() => verifyRevocation(token, { bot, trustedMembers: [member.publicKey], now: NOW }))).toBe("not_yet_valid");
  });

  it("refuses malformed tokens and payloads that are not canonical or have other keys", () => {
    const trusted = { bot, trustedMembers: [member.publicKey], now: NOW };
    expect(code(() => verifyRevocation("xx1.abc", trusted))).toBe("malformed");
    expect(code(() => verifyRevocation(`er1.${"A".repeat(30 * 1024)}`, trusted))).toBe("malformed");
    expect(code(() => verifyRevocation("er1.AAAA", trusted))).toBe("malformed");
    expect(code(() => verifyRevocation(forge(`{"v":1,"typ":"revocation","grant":"${sealed}","iat":${NOW}}`, member), trusted))).toBe("malformed");
    expect(code(() => verifyRevocation(forge({ v: 1, typ: "revocation", grant: sealed, iat: NOW, gid: "x" }, member), trusted))).toBe("malformed");
    expect(code(() => verifyRevocation(forge({ v: 1, typ: "grant", grant: sealed, iat: NOW }, member), trusted))).toBe("malformed");
    expect(code(() => verifyRevocation(forge({ v: 1, typ: "revocation", grant: "eg1.a b", iat: NOW }, member), trusted))).toBe("malformed");
  });

  it("refuses to sign a value that is not a sealed grant, or with a secret key of another member", () => {
    expect(code(() => signRevocation({ member, grant: "not a grant", now: NOW }))).toBe("malformed");
    expect(code(() => signRevocation({ member: { publicKey: member.publicKey, secretKey: stranger.secretKey }, grant: sealed, now: NOW }))).toBe("malformed");
  });
});

describe("revocationSignedBy (what a broker can check without the bot's key)", () => {
  it("is true only for the member who signed, false for another key, a forged context and anything malformed", () => {
    const token = signRevocation({ member, grant: sealed, now: NOW });
    expect(revocationSignedBy(token, member.publicKey)).toBe(true);
    expect(revocationSignedBy(token, stranger.publicKey)).toBe(false);
    expect(revocationSignedBy(forge({ v: 1, typ: "revocation", grant: sealed, iat: NOW }, member, CONFIRM_CONTEXT), member.publicKey)).toBe(false);
    expect(revocationSignedBy(`${REVOCATION_PREFIX}${"A".repeat(200)}`, member.publicKey)).toBe(false);
    expect(revocationSignedBy(`${REVOCATION_PREFIX}not base64!`, member.publicKey)).toBe(false);
    expect(revocationSignedBy(token, "short")).toBe(false);
    expect(revocationSignedBy(token.slice(4), member.publicKey)).toBe(false);
  });
});

import sodium from "libsodium-wrappers";
import { beforeAll, describe, expect, it } from "vitest";
import { forgeApproval, MANIFEST_HASH, NOW, refusal } from "./__fixtures__/forge.js";
import { approvalJson, type Approval } from "./approval-payload.js";
import { fromBase64Url, toBase64Url } from "./base64url.js";
import { blake2b256Base64Url } from "./digest.js";
import { issueApproval, type IssueApprovalInput } from "./issue-approval.js";
import { issueGrant } from "./issue-grant.js";
import { generateBotKeys, generateMemberKeys, type KeyPair } from "./keys.js";
import { MAX_APPROVAL_TTL_SECONDS } from "./limits.js";
import { openApproval } from "./open-approval.js";
import { openGrant } from "./open-grant.js";
import { GRANT_CONTEXT, signedMessage } from "./signed-message.js";
import { ready } from "./sodium.js";

let member: KeyPair;
let stranger: KeyPair;
let botA: KeyPair;
let botB: KeyPair;
const LINE = "Always allow, without asking each time: Post a message; channel is “#standup”";

beforeAll(async () => {
  await ready();
  member = generateMemberKeys();
  stranger = generateMemberKeys();
  botA = generateBotKeys();
  botB = generateBotKeys();
});

function input(overrides: Partial<IssueApprovalInput> = {}): IssueApprovalInput {
  return {
    member,
    botPublicKey: botA.publicKey,
    integration: "slack",
    manifestHash: MANIFEST_HASH,
    op: "chat.post",
    args: { channel: { eq: "#standup" }, text: "any", count: { min: 1, max: 5 } },
    budget: { runs: 20, per_seconds: 86_400 },
    line: LINE,
    ttlSeconds: 7 * 86_400,
    now: NOW,
    ...overrides,
  };
}

function open(sealed: string, now = NOW): Approval {
  return openApproval(sealed, { bot: botA, trustedMembers: [member.publicKey], now });
}

/** A valid payload, to change one field of and sign by hand. */
function payload(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    v: 1,
    typ: "approval",
    aid: toBase64Url(new Uint8Array(16).fill(7)),
    iss: member.publicKey,
    aud: botA.publicKey,
    integration: "slack",
    manifest_hash: MANIFEST_HASH,
    op: "chat.post",
    args: { channel: { eq: "#standup" } },
    budget: { runs: 20, per_seconds: 86_400 },
    line_digest: blake2b256Base64Url(LINE),
    iat: NOW,
    exp: NOW + 3600,
    ...overrides,
  };
}

function forged(body: string | object, signer: KeyPair = member, audience = botA.publicKey, sealTo = botA.publicKey): string {
  return forgeApproval({ payload: body, signerSecretKey: signer.secretKey, audience, sealTo });
}

describe("issueApproval / openApproval", () => {
  it("round-trips every field, with the digest of the line the member saw", () => {
    const sealed = issueApproval(input({ event: "message.posted", budget: { runs: 3, per_seconds: 3600, sum: { arg: "count", max: 10 } } }));
    expect(sealed.startsWith("ea1.")).toBe(true);
    const approval = open(sealed);
    expect(approval).toMatchObject({
      v: 1,
      typ: "approval",
      iss: member.publicKey,
      aud: botA.publicKey,
      integration: "slack",
      manifest_hash: MANIFEST_HASH,
      op: "chat.post",
      args: { channel: { eq: "#standup" }, text: "any", count: { min: 1, max: 5 } },
      budget: { runs: 3, per_seconds: 3600, sum: { arg: "count", max: 10 } },
      line_digest: blake2b256Base64Url(LINE),
      event: "message.posted",
      iat: NOW,
      exp: NOW + 7 * 86_400,
    });
    expect(fromBase64Url(approval.aid)).toHaveLength(16);
    expect(open(issueApproval(input())).aid).not.toBe(approval.aid);
  });

  it("lives up to 30 days and refuses a longer ttlSeconds as ttl_too_long, never clamped", () => {
    expect(open(issueApproval(input({ ttlSeconds: MAX_APPROVAL_TTL_SECONDS }))).exp).toBe(NOW + 30 * 86_400);
    expect(refusal(() => issueApproval(input({ ttlSeconds: MAX_APPROVAL_TTL_SECONDS + 1 })))).toBe("ttl_too_long");
    expect(refusal(() => issueApproval(input({ ttlSeconds: 0 })))).toBe("malformed");
  });

  it("refuses bad input when issuing (malformed)", () => {
    const bad: Partial<IssueApprovalInput>[] = [
      { op: "Not An Op" },
      { integration: "Slack!" },
      { manifestHash: "ABC" },
      { line: "" },
      { args: { channel: { eq: "a", in: ["b"] } as never } },
      { args: { channel: { min: 5, max: 1 } } },
      { args: { channel: { in: [] } } },
      { args: { channel: { in: ["a", "a"] } } },
      { args: { channel: { max: Number.POSITIVE_INFINITY } } },
      { args: { channel: "anything" as never } },
      { args: { channel: { eq: "x".repeat(1025) } } },
      { args: { channel: { eq: "\ud800" } } },
      { args: { Channel: "any" } },
      { args: Object.fromEntries(Array.from({ length: 33 }, (_, index) => [`a${index}`, "any" as const])) },
      { budget: { runs: 0, per_seconds: 60 } },
      { budget: { runs: 1.5, per_seconds: 60 } },
      { budget: { runs: 1, per_seconds: 0 } },
      { budget: { runs: 1, per_seconds: 60, sum: { arg: "amount", max: 5 } } },
      { budget: { runs: 1, per_seconds: 60, sum: { arg: "count", max: 0 } } },
      { budget: { runs: 1, per_seconds: 60, extra: 1 } as never },
      { event: "Not an event" },
    ];
    for (const overrides of bad)
      expect(
        refusal(() => issueApproval(input(overrides))),
        JSON.stringify(overrides),
      ).toBe("malformed");
  });

  it("attack: another bot cannot open it, and a grant opener refuses it", () => {
    const sealed = issueApproval(input());
    expect(refusal(() => openApproval(sealed, { bot: botB, trustedMembers: [member.publicKey], now: NOW }))).toBe("not_for_this_bot");
    expect(refusal(() => openGrant(sealed, { bot: botA, trustedMembers: [member.publicKey], now: NOW }))).toBe("malformed");
  });

  it("attack: a grant is never taken for an approval", () => {
    const grant = issueGrant({
      member,
      botPublicKey: botA.publicKey,
      integration: "slack",
      manifestHash: MANIFEST_HASH,
      access: "write",
      credential: { kind: "pat", token: "xoxb-1" },
      ttlSeconds: 60,
      now: NOW,
    });
    expect(refusal(() => open(grant))).toBe("malformed");
    expect(refusal(() => open(`ea1.${grant.slice(4)}`))).toBe("malformed");
  });

  it("attack: replayed on another bot by resealing it there (the signature names the first bot)", () => {
    // botA opens it, reseals the member's signature and payload to botB.
    const body = payload();
    const sealedForB = forged(body, member, botA.publicKey, botB.publicKey);
    expect(refusal(() => openApproval(sealedForB, { bot: botB, trustedMembers: [member.publicKey], now: NOW }))).toBe("not_for_this_bot");
    // ...or rewrites `aud` to botB: the signature no longer verifies.
    const signedForA = forged(payload({ aud: botB.publicKey }), member, botA.publicKey, botB.publicKey);
    expect(refusal(() => openApproval(signedForA, { bot: botB, trustedMembers: [member.publicKey], now: NOW }))).toBe("bad_signature");
  });

  it("attack: an untrusted member, and a trusted key that did not sign", () => {
    expect(refusal(() => open(issueApproval(input({ member: stranger }))))).toBe("untrusted_member");
    expect(refusal(() => open(forged(payload(), stranger)))).toBe("bad_signature");
  });

  it("attack: a signature made for a grant does not verify as an approval (domain separation)", () => {
    const bytes = new TextEncoder().encode(approvalJson(payload() as Approval));
    const grantSigned = forgeApproval({ payload: payload(), signerSecretKey: member.secretKey, audience: botA.publicKey, sealTo: botA.publicKey });
    expect(open(grantSigned).op).toBe("chat.post");
    const audience = fromBase64Url(botA.publicKey);
    const message = signedMessage([GRANT_CONTEXT, audience, bytes]);
    const signature = sodium.crypto_sign_detached(message, fromBase64Url(member.secretKey));
    const plaintext = new Uint8Array(64 + bytes.length);
    plaintext.set(signature, 0);
    plaintext.set(bytes, 64);
    const sealed = `ea1.${toBase64Url(sodium.crypto_box_seal(plaintext, audience))}`;
    expect(refusal(() => open(sealed))).toBe("bad_signature");
  });

  it("attack: a payload living longer than 30 days, expired, or issued in the future", () => {
    expect(refusal(() => open(forged(payload({ exp: NOW + MAX_APPROVAL_TTL_SECONDS + 1 }))))).toBe("ttl_too_long");
    expect(open(forged(payload({ exp: NOW + MAX_APPROVAL_TTL_SECONDS }))).exp).toBe(NOW + MAX_APPROVAL_TTL_SECONDS);
    expect(refusal(() => open(forged(payload()), NOW + 3600 + 60))).toBe("expired");
    expect(open(forged(payload()), NOW + 3600 + 59).op).toBe("chat.post");
    expect(refusal(() => open(forged(payload({ iat: NOW + 61, exp: NOW + 3600 }))))).toBe("not_yet_valid");
  });

  it("attack: a signed payload that is not strict and canonical is malformed", () => {
    const bad: (string | object)[] = [
      payload({ extra: 1 }),
      payload({ typ: "grant" }),
      payload({ v: 2 }),
      payload({ args: { channel: { eq: "#standup", max: 3 } } }),
      payload({ args: { channel: { in: "#standup" } } }),
      payload({ args: { channel: { max: "5" } } }),
      payload({ args: { channel: null } }),
      payload({ budget: { runs: 20 } }),
      payload({ budget: { runs: 20, per_seconds: 86_400, sum: { arg: "amount", max: 5 } } }),
      payload({ line_digest: "short" }),
      payload({ exp: NOW }),
      JSON.stringify(payload()),
      approvalJson(payload() as Approval).replace('"v":1', '"v":1.0'),
      approvalJson(payload() as Approval).replace("}", " }"),
    ];
    for (const body of bad)
      expect(
        refusal(() => open(forged(body))),
        JSON.stringify(body),
      ).toBe("malformed");
    expect(approvalJson(payload() as Approval)).not.toBe(JSON.stringify(payload()));
  });

  it("attack: junk, the wrong prefix and an oversized token are malformed before any crypto", () => {
    expect(refusal(() => open("ea1.!!!"))).toBe("malformed");
    expect(refusal(() => open("ea1.AAAA"))).toBe("malformed");
    expect(refusal(() => open(`eg1.${issueApproval(input()).slice(4)}`))).toBe("malformed");
    expect(refusal(() => open(`ea1.${"A".repeat(17_000)}`))).toBe("malformed");
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { forgeSealed, MANIFEST_HASH, NOW, refusal } from "./__fixtures__/forge.js";
import { fromBase64Url, toBase64Url } from "./base64url.js";
import { issueApproval } from "./issue-approval.js";
import { issueGrant } from "./issue-grant.js";
import { issueSubscription, type IssueSubscriptionInput } from "./issue-subscription.js";
import { generateBotKeys, generateMemberKeys, type KeyPair } from "./keys.js";
import { MAX_SUBSCRIPTION_TTL_SECONDS } from "./limits.js";
import { openApproval } from "./open-approval.js";
import { openGrant } from "./open-grant.js";
import { openSubscription } from "./open-subscription.js";
import { revocationSignedBy, signRevocation, verifyApprovalRevocation, verifyRevocation, verifySubscriptionRevocation } from "./revocation.js";
import { APPROVAL_CONTEXT, GRANT_CONTEXT, SUBSCRIPTION_CONTEXT } from "./signed-message.js";
import { ready } from "./sodium.js";
import { subscriptionJson, type Subscription } from "./subscription-payload.js";

let member: KeyPair;
let stranger: KeyPair;
let bot: KeyPair;
let otherBot: KeyPair;

beforeAll(async () => {
  await ready();
  member = generateMemberKeys();
  stranger = generateMemberKeys();
  bot = generateBotKeys();
  otherBot = generateBotKeys();
});

function input(overrides: Partial<IssueSubscriptionInput> = {}): IssueSubscriptionInput {
  return {
    member,
    botPublicKey: bot.publicKey,
    integration: "github",
    manifestHash: MANIFEST_HASH,
    events: ["issues.opened", "pull_request.opened"],
    args: { repo: "octo/hello" },
    account: { id: "583231", name: "octocat" },
    ttlSeconds: 7 * 86_400,
    now: NOW,
    ...overrides,
  };
}

const open = (sealed: string, now = NOW + 10, by: KeyPair = bot) => openSubscription(sealed, { bot: by, trustedMembers: [member.publicKey], now });

function payloadOf(overrides: Partial<Subscription> = {}): Subscription {
  return {
    v: 1,
    typ: "subscription",
    sid: toBase64Url(new Uint8Array(16).fill(7)),
    iss: member.publicKey,
    aud: bot.publicKey,
    integration: "github",
    manifest_hash: MANIFEST_HASH,
    events: ["issues.opened"],
    iat: NOW,
    exp: NOW + 3600,
    ...overrides,
  };
}

const forge = (payload: string | object, context = SUBSCRIPTION_CONTEXT, signer: KeyPair = member, prefix = "es1.") =>
  forgeSealed({ prefix, context, payload, signerSecretKey: signer.secretKey, audience: bot.publicKey, sealTo: bot.publicKey });

describe("issueSubscription / openSubscription", () => {
  it("issues an es1. token the bot opens to exactly what the member signed", () => {
    const sealed = issueSubscription(input());
    expect(sealed.startsWith("es1.")).toBe(true);
    const subscription = open(sealed);
    expect(subscription).toMatchObject({
      v: 1,
      typ: "subscription",
      iss: member.publicKey,
      aud: bot.publicKey,
      integration: "github",
      manifest_hash: MANIFEST_HASH,
      events: ["issues.opened", "pull_request.opened"],
      args: { repo: "octo/hello" },
      account: { id: "583231", name: "octocat" },
      iat: NOW,
      exp: NOW + 7 * 86_400,
    });
    expect(fromBase64Url(subscription.sid)).toHaveLength(16);
    expect(open(issueSubscription(input())).sid).not.toBe(subscription.sid);
  });

  it("args and account are optional, and absent when not given", () => {
    const subscription = open(issueSubscription(input({ args: undefined, account: undefined } as unknown as Partial<IssueSubscriptionInput>)));
    expect(Object.keys(subscription).sort()).toEqual(["aud", "events", "exp", "iat", "integration", "iss", "manifest_hash", "sid", "typ", "v"]);
  });

  it("refuses a ttlSeconds over 30 days with ttl_too_long (never clamped); 30 days exactly is fine", () => {
    expect(refusal(() => issueSubscription(input({ ttlSeconds: MAX_SUBSCRIPTION_TTL_SECONDS + 1 })))).toBe("ttl_too_long");
    expect(open(issueSubscription(input({ ttlSeconds: MAX_SUBSCRIPTION_TTL_SECONDS }))).exp).toBe(NOW + MAX_SUBSCRIPTION_TTL_SECONDS);
  });

  it("refuses bad input as malformed: no events, an event twice, an event id that is not one, a zero ttl", () => {
    expect(refusal(() => issueSubscription(input({ events: [] })))).toBe("malformed");
    expect(refusal(() => issueSubscription(input({ events: ["issues.opened", "issues.opened"] })))).toBe("malformed");
    expect(refusal(() => issueSubscription(input({ events: ["Issues Opened"] })))).toBe("malformed");
    expect(refusal(() => issueSubscription(input({ ttlSeconds: 0 })))).toBe("malformed");
  });

  it("attack: another bot cannot open it", () => {
    expect(refusal(() => open(issueSubscription(input()), NOW + 10, otherBot))).toBe("not_for_this_bot");
  });

  it("attack: a member the bot does not trust", () => {
    expect(refusal(() => open(issueSubscription(input({ member: stranger }))))).toBe("untrusted_member");
  });

  it("attack: tampered ciphertext is refused", () => {
    const sealed = issueSubscription(input());
    const bytes = fromBase64Url(sealed.slice(4));
    bytes[bytes.length - 5] = (bytes[bytes.length - 5] ?? 0) ^ 1;
    expect(refusal(() => open(`es1.${toBase64Url(bytes)}`))).toBe("not_for_this_bot");
  });

  it("attack: a payload re-signed with more events by someone else, or signed under a grant's or an approval's context", () => {
    expect(refusal(() => open(forge(payloadOf({ events: ["issues.opened", "issues.closed"] }), SUBSCRIPTION_CONTEXT, stranger)))).toBe("bad_signature");
    expect(refusal(() => open(forge(payloadOf(), GRANT_CONTEXT)))).toBe("bad_signature");
    expect(refusal(() => open(forge(payloadOf(), APPROVAL_CONTEXT)))).toBe("bad_signature");
    expect(open(forge(payloadOf())).events).toEqual(["issues.opened"]);
  });

  it("attack: a grant or an approval is never a subscription, and a subscription is neither", () => {
    const sealed = issueSubscription(input());
    expect(refusal(() => openGrant(`eg1.${sealed.slice(4)}`, { bot, trustedMembers: [member.publicKey], now: NOW }))).toBeDefined();
    expect(refusal(() => openApproval(`ea1.${sealed.slice(4)}`, { bot, trustedMembers: [member.publicKey], now: NOW }))).toBe("malformed");
    const approval = issueApproval({
      member,
      botPublicKey: bot.publicKey,
      integration: "github",
      manifestHash: MANIFEST_HASH,
      op: "issues.comment",
      args: { body: "any" },
      budget: { runs: 1, per_seconds: 60 },
      line: "Always allow",
      ttlSeconds: 60,
      now: NOW,
    });
    expect(refusal(() => open(`es1.${approval.slice(4)}`))).toBe("malformed");
  });

  it("attack: a non-canonical spelling of a signed payload is refused", () => {
    const text = subscriptionJson(payloadOf()).replace('"v":1', '"v":1.0');
    expect(refusal(() => open(forge(text)))).toBe("malformed");
  });

  it("attack: expired, not yet valid, and a forged payload living over 30 days", () => {
    const sealed = issueSubscription(input({ ttlSeconds: 3600 }));
    expect(refusal(() => open(sealed, NOW + 3600 + 60))).toBe("expired");
    expect(open(sealed, NOW + 3600 + 59).exp).toBe(NOW + 3600);
    expect(refusal(() => open(sealed, NOW - 61))).toBe("not_yet_valid");
    expect(refusal(() => open(forge(payloadOf({ exp: NOW + MAX_SUBSCRIPTION_TTL_SECONDS + 1 }))))).toBe("ttl_too_long");
  });

  it("attack: an over-long or wrongly prefixed token is malformed before anything is opened", () => {
    expect(refusal(() => open(`es1.${"A".repeat(17_000)}`))).toBe("malformed");
    expect(refusal(() => open(`eg1.${issueSubscription(input()).slice(4)}`))).toBe("malformed");
  });
});

describe("revoking a subscription", () => {
  const options = () => ({ bot, trustedMembers: [member.publicKey, stranger.publicKey], now: NOW + 10 });

  it("signRevocation takes a sealed es1. and verifySubscriptionRevocation opens it to its sid", () => {
    const sealed = issueSubscription(input());
    const token = signRevocation({ member, grant: sealed, now: NOW + 5 });
    const verified = verifySubscriptionRevocation(token, options());
    expect(verified.iat).toBe(NOW + 5);
    expect(verified.subscription.sid).toBe(open(sealed).sid);
    expect(revocationSignedBy(token, member.publicKey)).toBe(true);
  });

  it("attack: another member cannot revoke the member's subscription", () => {
    const token = signRevocation({ member: stranger, grant: issueSubscription(input()), now: NOW });
    expect(refusal(() => verifySubscriptionRevocation(token, options()))).toBe("bad_signature");
  });

  it("attack: another bot cannot open it; a grant's or an approval's verifier refuses it", () => {
    const token = signRevocation({ member, grant: issueSubscription(input()), now: NOW });
    expect(refusal(() => verifySubscriptionRevocation(token, { ...options(), bot: otherBot }))).toBe("not_for_this_bot");
    expect(refusal(() => verifyRevocation(token, options()))).toBe("malformed");
    expect(refusal(() => verifyApprovalRevocation(token, options()))).toBe("malformed");
    const grant = issueGrant({
      member,
      botPublicKey: bot.publicKey,
      integration: "github",
      manifestHash: MANIFEST_HASH,
      access: "read",
      credential: { kind: "pat", token: "t" },
      ttlSeconds: 600,
      now: NOW,
    });
    expect(refusal(() => verifySubscriptionRevocation(signRevocation({ member, grant, now: NOW }), options()))).toBe("malformed");
  });
});

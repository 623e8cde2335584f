import { canonicalJson } from "@eleven-integrations/schema";
import { beforeAll, describe, expect, it } from "vitest";
import { forgeGrant, MANIFEST_HASH, NOW, refusal } from "./__fixtures__/forge.js";
import { grantJson, type Grant } from "./grant-payload.js";
import { decideByPolicy, type GrantPolicy } from "./grant-policy.js";
import { issueGrant, type IssueGrantInput } from "./issue-grant.js";
import { generateBotKeys, generateMemberKeys, type KeyPair } from "./keys.js";
import { openGrant } from "./open-grant.js";
import { ready } from "./sodium.js";

let member: KeyPair;
let bot: KeyPair;

beforeAll(async () => {
  await ready();
  member = generateMemberKeys();
  bot = generateBotKeys();
});

function input(overrides: Partial<IssueGrantInput> = {}): IssueGrantInput {
  return {
    member,
    botPublicKey: bot.publicKey,
    integration: "github",
    manifestHash: MANIFEST_HASH,
    access: "write",
    credential: { kind: "pat", token: "ghp_token" },
    ttlSeconds: 600,
    now: NOW,
    ...overrides,
  };
}

const open = (sealed: string): Grant => openGrant(sealed, { bot, trustedMembers: [member.publicKey], now: NOW });

function payload(policy: unknown): Record<string, unknown> {
  return {
    v: 1,
    typ: "grant",
    gid: "AAAAAAAAAAAAAAAAAAAAAA",
    iss: member.publicKey,
    aud: bot.publicKey,
    integration: "github",
    manifest_hash: MANIFEST_HASH,
    access: "write",
    cred: { kind: "pat", token: "ghp_token" },
    iat: NOW,
    exp: NOW + 600,
    policy,
  };
}

const forged = (body: object): string => forgeGrant({ payload: body, signerSecretKey: member.secretKey, audience: bot.publicKey, sealTo: bot.publicKey });

describe("policy in the grant", () => {
  it("is signed with the grant and opened as issued", () => {
    const policy: GrantPolicy = { read: "allow", write: "ask", destructive: "block", ops: { "issues.create": "block", "issues.close": "ask" } };
    const grant = open(issueGrant(input({ policy })));
    expect(grant.policy).toEqual(policy);
    expect(grantJson(grant)).toBe(canonicalJson(grant));
  });

  it("leaves a grant without policy exactly as before: no key, the same canonical bytes", () => {
    const grant = open(issueGrant(input()));
    expect(Object.hasOwn(grant, "policy")).toBe(false);
    expect(grantJson(grant)).toBe(canonicalJson(grant));
    expect(grantJson(grant)).not.toContain("policy");
  });

  it("refuses a bad policy when issuing", () => {
    const bad: unknown[] = [{}, { ops: {} }, { write: "maybe" }, { reads: "allow" }, { ops: { "Not An Op": "allow" } }, { ops: { "a.b": "yes" } }, []];
    for (const policy of bad)
      expect(
        refusal(() => issueGrant(input({ policy: policy as GrantPolicy }))),
        JSON.stringify(policy),
      ).toBe("malformed");
  });

  it("attack: a signed payload with an unknown, empty or non-canonical policy is malformed", () => {
    for (const policy of [{}, { extra: "allow" }, { write: "allow", ops: {} }, { ops: { __proto__: "allow" } }, "block", null]) {
      expect(
        refusal(() => open(forged(payload(policy)))),
        JSON.stringify(policy),
      ).toBe("malformed");
    }
    const text = canonicalJson(payload({ ops: { "a.b": "block", "a.c": "ask" } })).replace('"a.b":"block","a.c":"ask"', '"a.c":"ask","a.b":"block"');
    expect(refusal(() => open(forgeGrant({ payload: text, signerSecretKey: member.secretKey, audience: bot.publicKey, sealTo: bot.publicKey })))).toBe(
      "malformed",
    );
    expect(open(forged(payload({ ops: { "a.b": "block", "a.c": "ask" } }))).policy).toEqual({ ops: { "a.b": "block", "a.c": "ask" } });
  });
});

describe("decideByPolicy", () => {
  const read = { id: "issues.list", access: "read" as const };
  const write = { id: "issues.create", access: "write" as const };
  const destructive = { id: "issues.delete", access: "write" as const, destructive: true };

  it("with no policy: reads allow, writes ask", () => {
    expect(decideByPolicy({}, read)).toBe("allow");
    expect(decideByPolicy({}, write)).toBe("ask");
    expect(decideByPolicy({}, destructive)).toBe("ask");
  });

  it("applies presets by class; a destructive write without a destructive rule follows write", () => {
    expect(decideByPolicy({ policy: { read: "block" } }, read)).toBe("block");
    expect(decideByPolicy({ policy: { read: "ask" } }, read)).toBe("ask");
    expect(decideByPolicy({ policy: { write: "block" } }, write)).toBe("block");
    expect(decideByPolicy({ policy: { write: "block" } }, destructive)).toBe("block");
    expect(decideByPolicy({ policy: { destructive: "block" } }, destructive)).toBe("block");
    expect(decideByPolicy({ policy: { destructive: "block" } }, write)).toBe("ask");
    expect(decideByPolicy({ policy: { write: "block", destructive: "ask" } }, destructive)).toBe("ask");
  });

  it("lets an op's own entry win over its class", () => {
    expect(decideByPolicy({ policy: { read: "allow", ops: { "issues.list": "block" } } }, read)).toBe("block");
    expect(decideByPolicy({ policy: { write: "block", ops: { "issues.create": "ask" } } }, write)).toBe("ask");
    expect(decideByPolicy({ policy: { destructive: "block", ops: { "issues.delete": "ask" } } }, destructive)).toBe("ask");
  });

  it("attack: allow on a write is never a blank cheque, it means ask", () => {
    expect(decideByPolicy({ policy: { write: "allow" } }, write)).toBe("ask");
    expect(decideByPolicy({ policy: { destructive: "allow" } }, destructive)).toBe("ask");
    expect(decideByPolicy({ policy: { ops: { "issues.create": "allow" } } }, write)).toBe("ask");
  });

  it("attack: an inherited op name is not an entry", () => {
    const ops = Object.create({ "issues.create": "block" }) as Record<string, "block">;
    ops["other.op"] = "block";
    expect(decideByPolicy({ policy: { ops } }, write)).toBe("ask");
  });
});

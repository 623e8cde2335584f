import sodium from "libsodium-wrappers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { forgeGrant, MANIFEST_HASH, NOW, refusal, sealGrantPlaintext, thrown } from "./__fixtures__/forge.js";
import { fromBase64Url, toBase64Url } from "./base64url.js";
import { GrantError } from "./grant-error.js";
import { issueGrant, type IssueGrantInput } from "./issue-grant.js";
import { generateBotKeys, generateMemberKeys, type KeyPair } from "./keys.js";
import { openGrant } from "./open-grant.js";
import { openSealed, sealToPublicKey } from "./seal.js";
import { ready } from "./sodium.js";

let member: KeyPair;
let stranger: KeyPair;
let botA: KeyPair;
let botB: KeyPair;

beforeAll(async () => {
  await ready();
  member = generateMemberKeys();
  stranger = generateMemberKeys();
  botA = generateBotKeys();
  botB = generateBotKeys();
});

afterEach(() => {
  vi.restoreAllMocks();
});

function input(overrides: Partial<IssueGrantInput> = {}): IssueGrantInput {
  return {
    member,
    botPublicKey: botA.publicKey,
    integration: "github",
    manifestHash: MANIFEST_HASH,
    access: "write",
    ops: ["issues.create", "issues.list"],
    credential: { kind: "pat", token: "ghp_secretToken123" },
    ttlSeconds: 600,
    now: NOW,
    ...overrides,
  };
}

function openA(token: string, now = NOW) {
  return openGrant(token, { bot: botA, trustedMembers: [member.publicKey], now });
}

/** A payload as issueGrant writes it, for forging variants of it. */
function payload(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    v: 1,
    typ: "grant",
    gid: toBase64Url(new Uint8Array(16).fill(7)),
    iss: member.publicKey,
    aud: botA.publicKey,
    integration: "github",
    manifest_hash: MANIFEST_HASH,
    access: "write",
    cred: { kind: "pat", token: "ghp_secretToken123" },
    iat: NOW,
    exp: NOW + 600,
    ...overrides,
  };
}

function forged(overrides: Record<string, unknown> = {}, signer: KeyPair = member): string {
  return forgeGrant({ payload: payload(overrides), signerSecretKey: signer.secretKey, audience: botA.publicKey, sealTo: botA.publicKey });
}

describe("issueGrant and openGrant", () => {
  it("round-trips every field for the bot it was issued to", () => {
    const token = issueGrant(input());
    expect(token.startsWith("eg1.")).toBe(true);
    const grant = openA(token);
    expect(grant).toEqual({
      v: 1,
      typ: "grant",
      gid: grant.gid,
      iss: member.publicKey,
      aud: botA.publicKey,
      integration: "github",
      manifest_hash: MANIFEST_HASH,
      access: "write",
      ops: ["issues.create", "issues.list"],
      cred: { kind: "pat", token: "ghp_secretToken123" },
      iat: NOW,
      exp: NOW + 600,
    });
    expect(fromBase64Url(grant.gid)).toHaveLength(16);
  });

  it("gives every grant a fresh random gid", () => {
    const first = openA(issueGrant(input()));
    const second = openA(issueGrant(input()));
    expect(first.gid).not.toBe(second.gid);
  });

  it("carries the access: read or write, the ops allow-list, the integration and the manifest hash", () => {
    const read = openA(issueGrant(input({ access: "read", ops: ["repos.list"], integration: "linear", manifestHash: "f".repeat(64) })));
    expect(read.access).toBe("read");
    expect(read.ops).toEqual(["repos.list"]);
    expect(read.integration).toBe("linear");
    expect(read.manifest_hash).toBe("f".repeat(64));

    const { ops: _ops, ...withoutOps } = input({ credential: { kind: "oauth", token: "gho_abc" } });
    const write = openA(issueGrant(withoutOps));
    expect(write.access).toBe("write");
    expect("ops" in write).toBe(false);
    expect(write.cred).toEqual({ kind: "oauth", token: "gho_abc" });
  });

  it("accepts a grant right up to the clock-skew edges", () => {
    const token = issueGrant(input({ now: NOW + 60 }));
    expect(openA(token, NOW).iat).toBe(NOW + 60);
    expect(openA(issueGrant(input()), NOW + 600 + 59).exp).toBe(NOW + 600);
  });
});

describe("openGrant refusals", () => {
  it("refuses every single flipped byte of the sealed box (not_for_this_bot)", () => {
    const token = issueGrant(input());
    const box = fromBase64Url(token.slice(4));
    for (let index = 0; index < box.length; index++) {
      const altered = box.slice();
      altered[index] = (altered[index] as number) ^ 0x01;
      expect(refusal(() => openA(`eg1.${toBase64Url(altered)}`))).toBe("not_for_this_bot");
    }
  });

  it("refuses every single changed character of the token", () => {
    const token = issueGrant(input());
    for (let index = 0; index < token.length; index++) {
      const replacement = token[index] === "B" ? "C" : "B";
      const altered = token.slice(0, index) + replacement + token.slice(index + 1);
      const code = refusal(() => openA(altered));
      // The prefix, or stray bits in the last character, fail decoding; anything else fails the box.
      expect(index < 4 || index === token.length - 1 ? ["malformed", "not_for_this_bot"] : ["not_for_this_bot"]).toContain(code);
    }
  });

  it("refuses every flipped byte of the signature or payload, even re-sealed to the right bot", () => {
    const token = issueGrant(input());
    const plaintext = openSealed(token.slice(4), botA);
    const codes = new Set<string | undefined>();
    for (let index = 0; index < plaintext.length; index++) {
      const altered = plaintext.slice();
      altered[index] = (altered[index] as number) ^ 0x01;
      const code = refusal(() => openA(sealGrantPlaintext(altered, botA.publicKey)));
      if (index < 64) expect(code).toBe("bad_signature");
      else expect(["bad_signature", "malformed", "untrusted_member"]).toContain(code);
      codes.add(code);
    }
    expect(codes.has(undefined)).toBe(false);
    expect(codes.has("bad_signature")).toBe(true);
  });

  it("refuses a token over 16 KiB before any crypto runs", () => {
    const open = vi.spyOn(sodium, "crypto_box_seal_open");
    const verify = vi.spyOn(sodium, "crypto_sign_verify_detached");
    const oversize = `eg1.${"A".repeat(16 * 1024 - 3)}`;
    expect(oversize.length).toBe(16 * 1024 + 1);
    const error = thrown(() => openA(oversize));
    expect(error.code).toBe("malformed");
    expect(error.message).toMatch(/at most 16384 characters/);
    expect(open).not.toHaveBeenCalled();
    expect(verify).not.toHaveBeenCalled();
    // One character less is read, and fails only because it is not a grant for this bot.
    expect(refusal(() => openA(`eg1.${"A".repeat(16 * 1024 - 4)}`))).toBe("not_for_this_bot");
    expect(open).toHaveBeenCalledTimes(1);
  });

  it("refuses a wrong prefix, bad base64url and a box too short to hold a signature (malformed)", () => {
    const token = issueGrant(input());
    expect(refusal(() => openA(`eg2.${token.slice(4)}`))).toBe("malformed");
    expect(refusal(() => openA(token.slice(4)))).toBe("malformed");
    expect(refusal(() => openA(`${token}=`))).toBe("malformed");
    expect(refusal(() => openA(`eg1.${token.slice(4).replace(/-|_/, "+")}`))).toBe("malformed");
    expect(refusal(() => openA(`eg1.${toBase64Url(new Uint8Array(112))}`))).toBe("malformed");
  });

  it("refuses a grant opened by another bot (not_for_this_bot)", () => {
    const token = issueGrant(input());
    expect(refusal(() => openGrant(token, { bot: botB, trustedMembers: [member.publicKey], now: NOW }))).toBe("not_for_this_bot");
  });

  it("refuses a signed grant that bot A re-sealed to bot B: aud names A (not_for_this_bot)", () => {
    const plaintext = openSealed(issueGrant(input()).slice(4), botA);
    const resealed = `eg1.${sealToPublicKey(plaintext, botB.publicKey)}`;
    const error = thrown(() => openGrant(resealed, { bot: botB, trustedMembers: [member.publicKey], now: NOW }));
    expect(error.code).toBe("not_for_this_bot");
    expect(error.message).toMatch(/another bot/);
  });

  it("refuses a grant signed by an untrusted key that claims a trusted member's id (bad_signature)", () => {
    expect(refusal(() => openA(forged({ iss: member.publicKey }, stranger)))).toBe("bad_signature");
  });

  it("refuses a grant from a member the bot does not trust (untrusted_member)", () => {
    const token = issueGrant(input({ member: stranger }));
    expect(refusal(() => openA(token))).toBe("untrusted_member");
    expect(refusal(() => openGrant(issueGrant(input()), { bot: botA, trustedMembers: [], now: NOW }))).toBe("untrusted_member");
  });

  it("refuses a grant signed for another audience than its aud (bad_signature)", () => {
    const token = forgeGrant({ payload: payload(), signerSecretKey: member.secretKey, audience: botB.publicKey, sealTo: botA.publicKey });
    expect(refusal(() => openA(token))).toBe("bad_signature");
  });

  it("refuses an expired grant, with 60 seconds of skew (expired)", () => {
    const token = issueGrant(input());
    expect(refusal(() => openA(token, NOW + 600 + 60))).toBe("expired");
    expect(refusal(() => openA(token, NOW + 10_000))).toBe("expired");
  });

  it("says which integration an expired grant was for, never its credential", () => {
    const token = issueGrant(input());
    const error = thrown(() => openA(token, NOW + 10_000));
    expect(error.code).toBe("expired");
    const opened = openA(token);
    expect(error.grant).toEqual({
      gid: opened.gid,
      iss: opened.iss,
      integration: opened.integration,
      manifest_hash: opened.manifest_hash,
      access: opened.access,
      ...(opened.ops === undefined ? {} : { ops: opened.ops }),
      iat: opened.iat,
      exp: opened.exp,
    });
    expect(JSON.stringify(error.grant)).not.toContain(opened.cred.token);
    // Any other refusal carries nothing of the grant.
    expect(thrown(() => openA(issueGrant(input({ now: NOW + 61 })), NOW)).grant).toBeUndefined();
  });

  it("refuses a grant issued more than 60 seconds in the future (not_yet_valid)", () => {
    expect(refusal(() => openA(issueGrant(input({ now: NOW + 61 })), NOW))).toBe("not_yet_valid");
  });

  it("refuses a lifetime over one hour when issuing and when opening (ttl_too_long)", () => {
    expect(refusal(() => issueGrant(input({ ttlSeconds: 3601 })))).toBe("ttl_too_long");
    expect(refusal(() => issueGrant(input({ ttlSeconds: 3600 })))).toBeUndefined();
    expect(refusal(() => openA(forged({ exp: NOW + 3601 })))).toBe("ttl_too_long");
    expect(openA(forged({ exp: NOW + 3600 })).exp).toBe(NOW + 3600);
  });

  it("refuses a v or typ other than expected (malformed)", () => {
    for (const [overrides, field] of [
      [{ v: 2 }, "`v`"],
      [{ v: "1" }, "`v`"],
      [{ typ: "confirm" }, "`typ`"],
      [{ typ: "Grant" }, "`typ`"],
    ] as const) {
      const error = thrown(() => openA(forged(overrides)));
      expect(error.code).toBe("malformed");
      expect(error.message).toContain(field);
    }
    expect(openA(forged()).typ).toBe("grant");
  });

  it("refuses a payload with unknown keys, missing keys or bad fields (malformed)", () => {
    for (const overrides of [{ admin: true }, { cred: { kind: "pat", token: "x", scope: "all" } }]) {
      const error = thrown(() => openA(forged(overrides)));
      expect(error.code).toBe("malformed");
      expect(error.message).toMatch(/unknown key/);
    }
    expect(refusal(() => openA(forged({ exp: undefined })))).toBe("malformed");
    expect(refusal(() => openA(forged({ access: "admin" })))).toBe("malformed");
    expect(refusal(() => openA(forged({ ops: [] })))).toBe("malformed");
    expect(refusal(() => openA(forged({ ops: ["issues.create", "issues.create"] })))).toBe("malformed");
    expect(refusal(() => openA(forged({ manifest_hash: MANIFEST_HASH.toUpperCase() })))).toBe("malformed");
    expect(refusal(() => openA(forged({ cred: { kind: "pat", token: "a\r\nX-Evil: 1" } })))).toBe("malformed");
    expect(refusal(() => openA(forged({ iat: 1.5 })))).toBe("malformed");
    expect(refusal(() => openA(forged({ exp: NOW })))).toBe("malformed");
  });

  it("refuses a payload that is not canonical JSON, though signed (malformed)", () => {
    const canonical = JSON.stringify(payload(), Object.keys(payload()).sort());
    const spaced = canonical.replace('"v":1', '"v": 1');
    const duplicated = canonical.replace('"v":1', '"v":1,"v":1');
    for (const text of [spaced, duplicated, JSON.stringify(payload()), `[${canonical}]`, "null"]) {
      const token = forgeGrant({ payload: text, signerSecretKey: member.secretKey, audience: botA.publicKey, sealTo: botA.publicKey });
      expect(refusal(() => openA(token))).toBe("malformed");
    }
  });
});

describe("issueGrant input", () => {
  it("refuses input it could not open again (malformed)", () => {
    expect(refusal(() => issueGrant(input({ ttlSeconds: 0 })))).toBe("malformed");
    expect(refusal(() => issueGrant(input({ ttlSeconds: 1.5 })))).toBe("malformed");
    expect(refusal(() => issueGrant(input({ integration: "Git Hub" })))).toBe("malformed");
    expect(refusal(() => issueGrant(input({ manifestHash: "abc" })))).toBe("malformed");
    expect(refusal(() => issueGrant(input({ ops: [] })))).toBe("malformed");
    expect(refusal(() => issueGrant(input({ ops: ["create"] })))).toBe("malformed");
    expect(refusal(() => issueGrant(input({ credential: { kind: "pat", token: "" } })))).toBe("malformed");
    expect(refusal(() => issueGrant(input({ credential: { kind: "pat", token: "a b" } })))).toBe("malformed");
    expect(refusal(() => issueGrant(input({ botPublicKey: "not-a-key" })))).toBe("malformed");
    expect(refusal(() => issueGrant(input({ now: -1 })))).toBe("malformed");
  });

  it("refuses a member key pair whose halves do not belong together (malformed)", () => {
    const mixed = { publicKey: member.publicKey, secretKey: stranger.secretKey };
    expect(refusal(() => issueGrant(input({ member: mixed })))).toBe("malformed");
  });

  it("refuses a credential too large for a 16 KiB grant rather than issue what cannot be opened", () => {
    expect(refusal(() => issueGrant(input({ credential: { kind: "pat", token: "x".repeat(12_500) } })))).toBe("malformed");
    const large = issueGrant(input({ credential: { kind: "pat", token: "x".repeat(11_000) } }));
    expect(large.length).toBeLessThanOrEqual(16 * 1024);
    expect(openA(large).cred.token).toHaveLength(11_000);
  });
});

describe("GrantError", () => {
  it("is recognised by its marker and never carries a token, key or payload in its message", () => {
    const token = issueGrant(input());
    const errors = [
      thrown(() => openGrant(token, { bot: botB, trustedMembers: [member.publicKey], now: NOW })),
      thrown(() => openA(token, NOW + 5000)),
      thrown(() => openA(forged({ admin: "ghp_secretToken123" }))),
      thrown(() => openA(forged({ cred: { kind: "pat", token: "ghp secret" } }))),
      thrown(() => issueGrant(input({ member: { publicKey: member.publicKey, secretKey: `${member.secretKey}x` } }))),
      thrown(() => issueGrant(input({ botPublicKey: `${botA.secretKey}x` }))),
    ];
    for (const error of errors) {
      expect(error).toBeInstanceOf(GrantError);
      expect(GrantError.isInstance(error)).toBe(true);
      for (const secret of [token, token.slice(4, 40), "ghp_secretToken123", "ghp secret", member.secretKey, botA.secretKey]) {
        expect(error.message).not.toContain(secret);
      }
    }
    const foreign = Object.assign(new Error("x"), { [Symbol.for("eleven-integrations.error.GrantError")]: true });
    expect(GrantError.isInstance(foreign)).toBe(true);
    expect(GrantError.isInstance(new Error("x"))).toBe(false);
    expect(GrantError.isInstance(null)).toBe(false);
  });
});

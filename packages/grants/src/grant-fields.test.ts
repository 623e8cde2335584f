import { canonicalJson } from "@eleven-integrations/schema";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { forgeGrant, MANIFEST_HASH, NOW, refusal, sealGrantPlaintext, thrown } from "./__fixtures__/forge.js";
import { toBase64Url } from "./base64url.js";
import { credentialExpired } from "./credential-expiry.js";
import { displayAccount } from "./display-account.js";
import { checkGrantPayload, grantJson } from "./grant-payload.js";
import { issueGrant, type IssueGrantInput } from "./issue-grant.js";
import { generateBotKeys, generateMemberKeys, type KeyPair } from "./keys.js";
import { openGrant } from "./open-grant.js";
import { openSealed } from "./seal.js";
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
    integration: "zendesk",
    manifestHash: MANIFEST_HASH,
    access: "write",
    credential: { kind: "oauth", token: "zd_secretToken", expires_at: NOW + 7200 },
    account: { id: "12345", name: "Ada Lovelace (Acme support)" },
    connection: { subdomain: "acme" },
    ttlSeconds: 600,
    now: NOW,
    ...overrides,
  };
}

function open(token: string, now = NOW) {
  return openGrant(token, { bot, trustedMembers: [member.publicKey], now });
}

function payload(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    v: 1,
    typ: "grant",
    gid: toBase64Url(new Uint8Array(16).fill(7)),
    iss: member.publicKey,
    aud: bot.publicKey,
    integration: "zendesk",
    manifest_hash: MANIFEST_HASH,
    access: "write",
    cred: { kind: "pat", token: "zd_secretToken" },
    iat: NOW,
    exp: NOW + 600,
    ...overrides,
  };
}

function forged(overrides: Record<string, unknown>): string {
  return forgeGrant({ payload: payload(overrides), signerSecretKey: member.secretKey, audience: bot.publicKey, sealTo: bot.publicKey });
}

describe("account, connection and cred.expires_at", () => {
  it("round-trip through issueGrant and openGrant", () => {
    const grant = open(issueGrant(input()));
    expect(grant.account).toEqual({ id: "12345", name: "Ada Lovelace (Acme support)" });
    expect(grant.connection).toEqual({ subdomain: "acme" });
    expect(grant.cred).toEqual({ kind: "oauth", token: "zd_secretToken", expires_at: NOW + 7200 });
  });

  it("are all optional: a grant without them opens without them", () => {
    const { account: _account, connection: _connection, ...rest } = input({ credential: { kind: "pat", token: "zd_x" } });
    const grant = open(issueGrant(rest));
    expect("account" in grant || "connection" in grant || "expires_at" in grant.cred).toBe(false);
  });

  it("an account name in any script (and with characters a chip neutralises) is carried as given", () => {
    const name = "Zoë \u05E9\u05DC\u05D5\u05DD \u{1F600}\u200D";
    expect(open(issueGrant(input({ account: { id: "U0ABC", name } }))).account?.name).toBe(name);
  });

  it("writes exactly the RFC 8785 form, whatever the account text and settings", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", minLength: 1, maxLength: 40 }),
        fc.string({ unit: "binary", minLength: 1, maxLength: 40 }).filter((text) => !/\p{Cs}/u.test(text)),
        fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/), fc.stringMatching(/^[a-z0-9-]{1,12}$/), { minKeys: 1, maxKeys: 8 }),
        fc.option(fc.nat(), { nil: undefined }),
        (id, name, connection, expiresAt) => {
          const grant = checkGrantPayload(
            payload({ account: { id, name }, connection, cred: { kind: "pat", token: "t", ...(expiresAt === undefined ? {} : { expires_at: expiresAt }) } }),
          );
          expect(grantJson(grant)).toBe(canonicalJson(grant));
        },
      ),
    );
  });

  it("the bot cannot change the connection (or the account): a re-sealed, edited payload is bad_signature", () => {
    const plaintext = openSealed(issueGrant(input()).slice(4), bot);
    const text = new TextDecoder().decode(plaintext.subarray(64));
    for (const [from, to] of [
      ['"subdomain":"acme"', '"subdomain":"evil"'],
      ['"id":"12345"', '"id":"99999"'],
    ] as const) {
      const edited = new TextEncoder().encode(text.replace(from, to));
      const plain = new Uint8Array(64 + edited.length);
      plain.set(plaintext.subarray(0, 64));
      plain.set(edited, 64);
      expect(refusal(() => open(sealGrantPlaintext(plain, bot.publicKey)))).toBe("bad_signature");
    }
  });

  it("are parsed strictly, with bounds, when opening (malformed, naming the field)", () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ account: { id: "", name: "x" } }, "`account.id`"],
      [{ account: { id: "1", name: "x".repeat(257) } }, "`account.name`"],
      [{ account: { id: "\u{1F600}".repeat(257), name: "x" } }, "`account.id`"],
      [{ account: { id: 12345, name: "x" } }, "`account.id`"],
      [{ account: { id: "1", name: "x", email: "a@b" } }, "unknown key"],
      [{ account: { id: "1" } }, "`name`"],
      [{ account: "12345" }, "`account`"],
      [{ connection: {} }, "`connection`"],
      [{ connection: { Subdomain: "acme" } }, "`connection`"],
      // Upper case is a path segment's (Twilio's AC…): a host setting's lowercase rule is held where the base is resolved.
      [{ connection: { subdomain: "acme!" } }, "`connection.subdomain`"],
      [{ connection: { subdomain: "acme.evil.com" } }, "`connection.subdomain`"],
      [{ connection: { subdomain: "a".repeat(64) } }, "`connection.subdomain`"],
      [{ connection: { subdomain: "" } }, "`connection.subdomain`"],
      [{ connection: { subdomain: 1 } }, "`connection.subdomain`"],
      [{ connection: Object.fromEntries(Array.from({ length: 9 }, (_, index) => [`k${index}`, "v"])) }, "more than 8"],
      [{ cred: { kind: "pat", token: "t", expires_at: -1 } }, "`cred.expires_at`"],
      [{ cred: { kind: "pat", token: "t", expires_at: 1.5 } }, "`cred.expires_at`"],
      [{ cred: { kind: "pat", token: "t", expires_at: "soon" } }, "`cred.expires_at`"],
      [{ cred: { kind: "pat", token: "t", refresh: "r" } }, "unknown key"],
    ];
    for (const [overrides, named] of cases) {
      const error = thrown(() => open(forged(overrides)));
      expect(error.code).toBe("malformed");
      expect(error.message).toContain(named);
    }
    // A lone surrogate has no UTF-8 form: JSON can carry it only escaped, and the check refuses it.
    expect(() => checkGrantPayload(payload({ account: { id: "1", name: "a\uD800" } }))).toThrow("lone surrogate");
    // The same bounds hold at their edges.
    expect(open(forged({ account: { id: "\u{1F600}".repeat(256), name: "x" }, connection: { subdomain: "a".repeat(63) } })).account?.id).toHaveLength(512);
  });

  it("issueGrant refuses what openGrant would refuse, and never echoes the token", () => {
    expect(refusal(() => issueGrant(input({ connection: { subdomain: "ACME" } })))).toBe("malformed");
    expect(refusal(() => issueGrant(input({ account: { id: "1", name: "" } })))).toBe("malformed");
    expect(refusal(() => issueGrant(input({ account: { id: "1", name: "x", extra: "y" } as unknown as { id: string; name: string } })))).toBe("malformed");
    const error = thrown(() => issueGrant(input({ credential: { kind: "oauth", token: "zd_secretToken", expires_at: -5 } })));
    expect(error.message).toContain("expires_at");
    expect(error.message).not.toContain("zd_secretToken");
  });
});

describe("tenant values follow the manifest's own pattern (third review, finding 12)", () => {
  // Twilio's manifest: the Account SID is a path segment, upper-case AC and 32 hex digits.
  const TWILIO_AUTH = { base: "https://api.twilio.com/2010-04-01/Accounts/{account_sid}", tenant: { account_sid: { pattern: "^AC[0-9a-f]{32}$" } } };
  const SID = `AC${"0123456789abcdef".repeat(2)}`;
  const twilio = (connection: Record<string, string>) =>
    input({ integration: "twilio", credential: { kind: "pat", token: "dHdpbGlv" }, connection, auth: TWILIO_AUTH });

  it("the attack was a refusal: a Twilio grant whose Account SID starts with upper-case AC is issued, and opens with it", () => {
    const grant = open(issueGrant(twilio({ account_sid: SID })));
    expect(grant.connection).toEqual({ account_sid: SID });
  });

  it("a value off the manifest's pattern, a missing setting or an undeclared one is refused when issued", () => {
    expect(refusal(() => issueGrant(twilio({ account_sid: SID.toLowerCase() })))).toBe("malformed");
    expect(thrown(() => issueGrant(twilio({ account_sid: `AC${"z".repeat(32)}` }))).message).toContain("pattern");
    const { connection: _none, ...withoutConnection } = input({ integration: "twilio", auth: TWILIO_AUTH });
    expect(refusal(() => issueGrant(withoutConnection))).toBe("malformed");
    expect(refusal(() => issueGrant(twilio({ account_sid: SID, region: "us1" })))).toBe("malformed");
    // A host setting stays one lowercase DNS label even under its manifest.
    const zendesk = { base: "https://{subdomain}.zendesk.com/api/v2", tenant: { subdomain: { pattern: ".+" } } };
    expect(refusal(() => issueGrant(input({ connection: { subdomain: "ACME" }, auth: zendesk })))).toBe("malformed");
    expect(open(issueGrant(input({ connection: { subdomain: "acme" }, auth: zendesk }))).connection).toEqual({ subdomain: "acme" });
  });

  it("a payload carries path-segment characters at most: a dot, a slash or a 64th character is refused when opened", () => {
    for (const value of ["AC..", "a/b", "a.b", "A".repeat(64), "AC 1"]) {
      expect(() => checkGrantPayload(payload({ connection: { account_sid: value } })), value).toThrow("`connection.account_sid`");
    }
    expect(checkGrantPayload(payload({ connection: { account_sid: SID } })).connection).toEqual({ account_sid: SID });
  });
});

describe("credentialExpired", () => {
  it("is true from the second the provider said the token ends, false before, never without expires_at", () => {
    const grant = open(issueGrant(input({ credential: { kind: "oauth", token: "t", expires_at: NOW + 100 } })));
    expect(credentialExpired(grant, NOW + 99)).toBe(false);
    expect(credentialExpired(grant, NOW + 100)).toBe(true);
    expect(credentialExpired(grant, NOW + 5000)).toBe(true);
    const lasting = open(issueGrant(input({ credential: { kind: "pat", token: "t" } })));
    expect(credentialExpired(lasting, Number.MAX_SAFE_INTEGER)).toBe(false);
  });

  it("reads the clock by default", () => {
    const now = Math.floor(Date.now() / 1000);
    expect(credentialExpired({ cred: { kind: "oauth", token: "t", expires_at: now - 1 } })).toBe(true);
    expect(credentialExpired({ cred: { kind: "oauth", token: "t", expires_at: now + 3600 } })).toBe(false);
  });
});

describe("displayAccount", () => {
  it("neutralises an account's text before anyone is shown it: hidden characters, right-to-left runs, length", () => {
    expect(displayAccount({ id: "42", name: "admin\u200B\u202Eevil" })).toEqual({ id: "42", name: "admin\uFFFD\uFFFDevil" });
    expect(displayAccount({ id: "7", name: "\u05E9\u05DC\u05D5\u05DD" }).name).toBe("\u2068\u05E9\u05DC\u05D5\u05DD\u2069");
    expect([...displayAccount({ id: "x".repeat(256), name: "n" }).id]).toHaveLength(120);
  });
});

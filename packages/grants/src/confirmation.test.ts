import { beforeAll, describe, expect, it } from "vitest";
import { forgeConfirmation, MANIFEST_HASH, NOW, refusal } from "./__fixtures__/forge.js";
import { fromBase64Url, toBase64Url } from "./base64url.js";
import { argsDigest, blake2b256Base64Url } from "./digest.js";
import { issueGrant } from "./issue-grant.js";
import { generateBotKeys, generateMemberKeys, type KeyPair } from "./keys.js";
import type { Grant } from "./grant-payload.js";
import { openGrant } from "./open-grant.js";
import { renderConfirm } from "./render-confirm.js";
import { ReplayCache } from "./replay-cache.js";
import { signConfirmation } from "./sign-confirmation.js";
import { ready } from "./sodium.js";
import { verifyConfirmation, verifyConfirmationAsync, type AsyncReplayStore } from "./verify-confirmation.js";

let member: KeyPair;
let stranger: KeyPair;
let bot: KeyPair;
let grant: Grant;
let otherGrant: Grant;

const op = "issues.create";
const args = { repo: "octo/hello", title: "Fix the bug" };
const template = "Create issue {title} in {repo}";
let line: string;

function grantFor(issuer: KeyPair): Grant {
  const token = issueGrant({
    member: issuer,
    botPublicKey: bot.publicKey,
    integration: "github",
    manifestHash: MANIFEST_HASH,
    access: "write",
    credential: { kind: "pat", token: "ghp_abc" },
    ttlSeconds: 3600,
    now: NOW,
  });
  return openGrant(token, { bot, trustedMembers: [issuer.publicKey], now: NOW });
}

beforeAll(async () => {
  await ready();
  member = generateMemberKeys();
  stranger = generateMemberKeys();
  bot = generateBotKeys();
  grant = grantFor(member);
  otherGrant = grantFor(member);
  line = renderConfirm(template, args);
});

function sign(overrides: { ttlSeconds?: number; now?: number } = {}): string {
  return signConfirmation({ member, grant, op, args, line, now: NOW, ...overrides });
}

function verify(
  token: string,
  options: { grant?: Grant; op?: string; args?: Record<string, string>; line?: string; now?: number; replay?: ReplayCache } = {},
): void {
  verifyConfirmation(token, { grant, op, args, line, replay: new ReplayCache(), now: NOW, ...options });
}

/** A Redis-like store: each consume waits on I/O, then sets the key only if absent (SET NX). */
function asyncStore(): AsyncReplayStore & { keys: Map<string, number> } {
  const keys = new Map<string, number>();
  return {
    keys,
    async consume(key, exp) {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
      if (keys.has(key)) return false;
      keys.set(key, exp);
      return true;
    },
  };
}

describe("signConfirmation and verifyConfirmation", () => {
  it("verifies once for that grant, op, exact args and rendered line", () => {
    const token = sign();
    expect(token.startsWith("ec1.")).toBe(true);
    const replay = new ReplayCache();
    expect(() => verify(token, { replay })).not.toThrow();
    expect(replay.size).toBe(1);
  });

  it("refuses the second use (replayed)", () => {
    const token = sign();
    const replay = new ReplayCache();
    verify(token, { replay });
    expect(refusal(() => verify(token, { replay }))).toBe("replayed");
    expect(refusal(() => verify(token, { replay, now: NOW + 200 }))).toBe("replayed");
  });

  it("refuses another op (mismatch)", () => {
    expect(refusal(() => verify(sign(), { op: "issues.close" }))).toBe("mismatch");
  });

  it("refuses one changed character in one arg (mismatch)", () => {
    expect(refusal(() => verify(sign(), { args: { ...args, title: "Fix the bux" } }))).toBe("mismatch");
    expect(refusal(() => verify(sign(), { args: { ...args, repo: "octo/hellO" } }))).toBe("mismatch");
  });

  it("refuses an added or a removed arg (mismatch)", () => {
    expect(refusal(() => verify(sign(), { args: { ...args, labels: "" } }))).toBe("mismatch");
    expect(refusal(() => verify(sign(), { args: { repo: args.repo } }))).toBe("mismatch");
  });

  it("does not depend on the order of the args' keys", () => {
    expect(refusal(() => verify(sign(), { args: { title: args.title, repo: args.repo } }))).toBeUndefined();
  });

  it("refuses another rendered line (mismatch)", () => {
    expect(refusal(() => verify(sign(), { line: `${line}.` }))).toBe("mismatch");
  });

  it("refuses a confirmation for another grant (mismatch)", () => {
    expect(refusal(() => verify(sign(), { grant: otherGrant }))).toBe("mismatch");
  });

  it("refuses a confirmation not signed by the grant's member (bad_signature)", () => {
    const token = forgeConfirmation({
      payload: {
        v: 1,
        gid: grant.gid,
        op,
        args_digest: argsDigest(args),
        line_digest: blake2b256Base64Url(line),
        nonce: toBase64Url(new Uint8Array(16)),
        exp: NOW + 300,
      },
      signerSecretKey: stranger.secretKey,
    });
    expect(refusal(() => verify(token))).toBe("bad_signature");
    const bytes = fromBase64Url(sign().slice(4));
    bytes[bytes.length - 3] = (bytes[bytes.length - 3] as number) ^ 0x01;
    expect(refusal(() => verify(`ec1.${toBase64Url(bytes)}`))).toBe("bad_signature");
  });

  it("refuses an expired confirmation, with 60 seconds of skew (expired)", () => {
    const token = sign({ ttlSeconds: 30 });
    expect(refusal(() => verify(token, { now: NOW + 30 + 59 }))).toBeUndefined();
    expect(refusal(() => verify(token, { now: NOW + 30 + 60 }))).toBe("expired");
  });

  it("refuses a confirmation living over 300 seconds, when signing and when verifying (ttl_too_long)", () => {
    expect(refusal(() => sign({ ttlSeconds: 301 }))).toBe("ttl_too_long");
    const token = sign({ now: NOW + 61 });
    expect(refusal(() => verify(token, { now: NOW }))).toBe("ttl_too_long");
    expect(refusal(() => verify(sign({ now: NOW + 60 }), { now: NOW }))).toBeUndefined();
  });

  it("signs with only the grant's gid and issuer, as a member's device knows them", () => {
    const token = signConfirmation({ member, grant: { gid: grant.gid, iss: member.publicKey }, op, args, line, now: NOW });
    expect(refusal(() => verify(token))).toBeUndefined();
    expect(refusal(() => signConfirmation({ member, grant: { gid: "short", iss: member.publicKey }, op, args, line, now: NOW }))).toBe("malformed");
  });

  it("refuses to sign for a grant another member issued (mismatch)", () => {
    expect(refusal(() => signConfirmation({ member: stranger, grant, op, args, line, now: NOW }))).toBe("mismatch");
  });

  it("refuses malformed tokens and payloads (malformed)", () => {
    const token = sign();
    expect(refusal(() => verify(`eg1.${token.slice(4)}`))).toBe("malformed");
    expect(refusal(() => verify(`${token}!`))).toBe("malformed");
    expect(refusal(() => verify(`ec1.${"A".repeat(4096)}`))).toBe("malformed");
    expect(refusal(() => verify(`ec1.${toBase64Url(new Uint8Array(64))}`))).toBe("malformed");
    const base = {
      v: 1,
      gid: grant.gid,
      op,
      args_digest: argsDigest(args),
      line_digest: blake2b256Base64Url(line),
      nonce: toBase64Url(new Uint8Array(16)),
      exp: NOW + 300,
    };
    for (const payload of [{ ...base, v: 2 }, { ...base, extra: 1 }, { ...base, nonce: "short" }, JSON.stringify(base)]) {
      const forged = forgeConfirmation({ payload, signerSecretKey: member.secretKey });
      expect(refusal(() => verify(forged))).toBe("malformed");
    }
  });

  it("consumes the nonce only after every other check passed", () => {
    const token = sign();
    const replay = new ReplayCache();
    expect(refusal(() => verify(token, { replay, op: "issues.close" }))).toBe("mismatch");
    expect(refusal(() => verify(token, { replay, now: NOW + 1000 }))).toBe("expired");
    expect(replay.size).toBe(0);
    expect(refusal(() => verify(token, { replay }))).toBeUndefined();
  });

  it("refuses when the replay cache is full of unexpired confirmations (replayed)", () => {
    const replay = new ReplayCache({ maxEntries: 1 });
    verify(sign(), { replay });
    expect(refusal(() => verify(sign(), { replay }))).toBe("replayed");
    expect(refusal(() => verify(sign({ now: NOW + 400 }), { replay, now: NOW + 400 }))).toBeUndefined();
  });
});

describe("verifyConfirmationAsync", () => {
  it("lets exactly one of two concurrent verifications of the same confirmation through", async () => {
    for (let round = 0; round < 20; round++) {
      const token = sign();
      const replay = asyncStore();
      const results = await Promise.allSettled([
        verifyConfirmationAsync(token, { grant, op, args, line, replay, now: NOW }),
        verifyConfirmationAsync(token, { grant, op, args, line, replay, now: NOW }),
      ]);
      expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
      const rejected = results.find((result) => result.status === "rejected");
      expect(rejected?.status === "rejected" && (rejected.reason as { code: string }).code).toBe("replayed");
    }
  });

  it("keeps the key until the confirmation can no longer verify, and refuses with the same codes", async () => {
    const replay = asyncStore();
    const token = sign();
    await verifyConfirmationAsync(token, { grant, op, args, line, replay, now: NOW });
    expect([...replay.keys.values()]).toEqual([NOW + 300 + 60]);
    await expect(verifyConfirmationAsync(token, { grant, op: "issues.close", args, line, replay, now: NOW })).rejects.toMatchObject({
      code: "mismatch",
    });
    expect(replay.keys.size).toBe(1);
  });
});

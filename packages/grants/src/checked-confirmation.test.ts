import { beforeAll, describe, expect, it } from "vitest";
import { MANIFEST_HASH, NOW } from "./__fixtures__/forge.js";
import { argsDigest, blake2b256Base64Url } from "./digest.js";
import { GrantError } from "./grant-error.js";
import type { Grant } from "./grant-payload.js";
import { issueGrant } from "./issue-grant.js";
import { generateBotKeys, generateMemberKeys, type KeyPair } from "./keys.js";
import { openGrant } from "./open-grant.js";
import { ReplayCache } from "./replay-cache.js";
import { signConfirmation } from "./sign-confirmation.js";
import { ready } from "./sodium.js";
import { CheckedConfirmation, checkConfirmation, consumeChecked } from "./verify-confirmation.js";

let member: KeyPair;
let grant: Grant;
const op = "issues.close";
const args = { repo: "octo/hello", number: "7" };
const line = "Close issue octo/hello#7";

beforeAll(async () => {
  await ready();
  member = generateMemberKeys();
  const bot = generateBotKeys();
  const token = issueGrant({
    member,
    botPublicKey: bot.publicKey,
    integration: "github",
    manifestHash: MANIFEST_HASH,
    access: "write",
    credential: { kind: "pat", token: "ghp_abc" },
    ttlSeconds: 3600,
    now: NOW,
  });
  grant = openGrant(token, { bot, trustedMembers: [member.publicKey], now: NOW });
});

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return GrantError.isInstance(error) ? error.code : `not a GrantError: ${String(error)}`;
  }
  return undefined;
}

describe("two-phase confirmation", () => {
  it("checkConfirmation checks without consuming, and names what the confirmation covers", () => {
    const token = signConfirmation({ member, grant, op, args, line, now: NOW });
    const replay = new ReplayCache();
    const first = checkConfirmation(token, { grant, op, args, line, now: NOW });
    const again = checkConfirmation(token, { grant, op, args, line, now: NOW });
    expect(replay.size).toBe(0);
    expect(first).toBeInstanceOf(CheckedConfirmation);
    expect(first.member).toBe(member.publicKey);
    expect(first.gid).toBe(grant.gid);
    expect(first.op).toBe(op);
    expect(first.key).toBe(`${grant.gid}.${first.nonce}`);
    expect(first.keepUntil).toBe(first.exp + 60);
    expect(first.argsDigest).toBe(argsDigest(args));
    expect(first.lineDigest).toBe(blake2b256Base64Url(line));
    expect(again.key).toBe(first.key);
  });

  it("the checked value is consumed once; the second consume is replayed", () => {
    const token = signConfirmation({ member, grant, op, args, line, now: NOW });
    const replay = new ReplayCache();
    const checked = checkConfirmation(token, { grant, op, args, line, now: NOW });
    consumeChecked(checked, replay, NOW);
    expect(codeOf(() => consumeChecked(checkConfirmation(token, { grant, op, args, line, now: NOW }), replay, NOW))).toBe("replayed");
  });

  it("refuses like verifyConfirmation: other args, another line, after expiry", () => {
    const token = signConfirmation({ member, grant, op, args, line, now: NOW });
    expect(codeOf(() => checkConfirmation(token, { grant, op, args: { ...args, number: "8" }, line, now: NOW }))).toBe("mismatch");
    expect(codeOf(() => checkConfirmation(token, { grant, op, args, line: `${line}!`, now: NOW }))).toBe("mismatch");
    expect(codeOf(() => checkConfirmation(token, { grant, op, args, line, now: NOW + 300 + 60 }))).toBe("expired");
  });

  it("a store's consume takes only what checkConfirmation made: a copy of its fields is not one", () => {
    const token = signConfirmation({ member, grant, op, args, line, now: NOW });
    const checked = checkConfirmation(token, { grant, op, args, line, now: NOW });
    const copy = { ...checked } as unknown as CheckedConfirmation;
    expect(CheckedConfirmation.isChecked(checked)).toBe(true);
    expect(CheckedConfirmation.isChecked(copy)).toBe(false);
    expect(() => consumeChecked(copy, new ReplayCache(), NOW)).toThrow(TypeError);
    // Nothing outside the module holds the seal that makes one.
    expect(() => CheckedConfirmation.fromChecks(checked, Symbol("checked confirmation") as never)).toThrow(TypeError);
  });
});

describe("recallConfirmation", () => {
  it("names an expired confirmation for its grant, op and args, and nothing else", async () => {
    const { recallConfirmation } = await import("./verify-confirmation.js");
    const token = signConfirmation({ member, grant, op, args, line, now: NOW });
    const later = NOW + 3600;
    expect(codeOf(() => checkConfirmation(token, { grant, op, args, line, now: later }))).toBe("expired");
    const recalled = recallConfirmation(token, { grant, op, args });
    const checked = checkConfirmation(token, { grant, op, args, line, now: NOW });
    expect(recalled).toEqual({
      member: checked.member,
      gid: checked.gid,
      key: checked.key,
      nonce: checked.nonce,
      exp: checked.exp,
      argsDigest: checked.argsDigest,
    });
    expect(CheckedConfirmation.isChecked(recalled)).toBe(false);
    expect(codeOf(() => recallConfirmation(token, { grant, op, args: { ...args, number: "8" } }))).toBe("mismatch");
    expect(codeOf(() => recallConfirmation(token, { grant, op: "issues.lock", args }))).toBe("mismatch");
    expect(codeOf(() => recallConfirmation(`${token.slice(0, -2)}AA`, { grant, op, args }))).toMatch(/bad_signature|malformed/);
  });
});

import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import {
  GrantError,
  generateBotKeys,
  generateMemberKeys,
  memberBoxKey,
  memberBoxKeys,
  openSealed,
  ready,
  sealToPublicKey,
  signRegistration,
  verifyRegistration,
} from "./index.js";

beforeAll(ready);

const NOW = 1_765_000_000;
const registrationOf = (bot: string) => ({
  sid: randomBytes(16).toString("base64url"),
  bot,
  integration: "github",
  account: "583231",
  account_binding: "ab1.x",
  events: ["issues.opened"],
  args: { repo: "octo/hello" },
});

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return GrantError.isInstance(error) ? error.code : "not a GrantError";
  }
  return undefined;
}

describe("event registrations (ew1.)", () => {
  it("verifies what the member signed, and refuses an altered payload, a past expiry and a life over 30 days", () => {
    const member = generateMemberKeys();
    const bot = generateBotKeys().publicKey;
    const token = signRegistration({ member, registration: registrationOf(bot), ttlSeconds: 3600, now: NOW });
    const payload = verifyRegistration(token, { now: NOW + 10 });
    expect(payload).toMatchObject({ iss: member.publicKey, bot, account: "583231", events: ["issues.opened"], exp: NOW + 3600 });

    const bytes = Buffer.from(token.slice(4), "base64url");
    const altered = Buffer.from(bytes.toString("latin1").replace("583231", "583232"), "latin1");
    expect(codeOf(() => verifyRegistration(`ew1.${altered.toString("base64url")}`, { now: NOW }))).toBe("bad_signature");
    expect(codeOf(() => verifyRegistration(token, { now: NOW + 3600 }))).toBe("expired");
    expect(codeOf(() => verifyRegistration(token, { now: NOW - 3600 }))).toBe("not_yet_valid");
    expect(codeOf(() => signRegistration({ member, registration: registrationOf(bot), ttlSeconds: 31 * 86400, now: NOW }))).toBe("ttl_too_long");
    expect(codeOf(() => verifyRegistration("eg1.abc", { now: NOW }))).toBe("malformed");
  });

  it("memberBoxKey is the X25519 form of the member's key: what is sealed to it opens with memberBoxKeys", () => {
    const member = generateMemberKeys();
    const box = memberBoxKeys(member);
    expect(memberBoxKey(member.publicKey)).toBe(box.publicKey);
    const sealed = sealToPublicKey("hello", memberBoxKey(member.publicKey));
    expect(Buffer.from(openSealed(sealed, box)).toString()).toBe("hello");
    expect(memberBoxKey(generateMemberKeys().publicKey)).not.toBe(box.publicKey);
  });
});

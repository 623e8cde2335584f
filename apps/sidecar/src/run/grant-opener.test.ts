import { generateBotKeys } from "@eleven-integrations/grants";
import { describe, expect, it } from "vitest";
import { createGrantOpener } from "./grant-opener.js";
import { bot, grantFor, member } from "../__fixtures__/grant-kit.js";

const NOW = Math.floor(Date.now() / 1000);

describe("createGrantOpener", () => {
  it("opens a grant once and gives the same payload for the same token after", () => {
    const open = createGrantOpener({ botKeys: bot, trustedMembers: [member.publicKey], now: () => NOW });
    const grant = grantFor();
    const first = open(grant);
    expect(first).toMatchObject({ integration: "github", iss: member.publicKey, aud: bot.publicKey });
    expect(open(grant)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
  });

  it("refuses a remembered grant once it expires", () => {
    let now = NOW;
    const open = createGrantOpener({ botKeys: bot, trustedMembers: [member.publicKey], now: () => now });
    const grant = grantFor({ ttlSeconds: 60, now: NOW });
    open(grant);
    now = NOW + 60 + 60;
    // Remembered or opened again, the refusal says which integration the grant was for (search tells the member).
    expect(() => open(grant)).toThrow(expect.objectContaining({ code: "expired", grant: expect.objectContaining({ integration: "github", access: "read" }) }));
    expect(() => open(grant)).toThrow(expect.objectContaining({ code: "expired", grant: expect.objectContaining({ integration: "github" }) }));
  });

  it("does not remember refusals, and refuses what openGrant refuses", () => {
    const open = createGrantOpener({ botKeys: generateBotKeys(), trustedMembers: [member.publicKey] });
    const grant = grantFor();
    expect(() => open(grant)).toThrow(expect.objectContaining({ code: "not_for_this_bot" }));
    expect(() => open(grant)).toThrow(expect.objectContaining({ code: "not_for_this_bot" }));
    expect(() => createGrantOpener({ botKeys: bot, trustedMembers: [] })(grant)).toThrow(expect.objectContaining({ code: "untrusted_member" }));
  });

  it("forgets the oldest grant when full", () => {
    const open = createGrantOpener({ botKeys: bot, trustedMembers: [member.publicKey], maxEntries: 2 });
    const [a, b, c] = [grantFor(), grantFor(), grantFor()];
    const first = open(a);
    open(b);
    expect(open(a)).toBe(first);
    open(c);
    const reopened = open(a);
    expect(reopened).not.toBe(first);
    expect(reopened).toEqual(first);
  });
});

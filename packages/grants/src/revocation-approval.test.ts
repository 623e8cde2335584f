import { beforeAll, describe, expect, it } from "vitest";
import { MANIFEST_HASH, NOW, refusal } from "./__fixtures__/forge.js";
import { issueApproval } from "./issue-approval.js";
import { issueGrant } from "./issue-grant.js";
import { generateBotKeys, generateMemberKeys, type KeyPair } from "./keys.js";
import { revocationSignedBy, signRevocation, verifyApprovalRevocation, verifyRevocation } from "./revocation.js";
import { ready } from "./sodium.js";

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

function approval(by: KeyPair = member): string {
  return issueApproval({
    member: by,
    botPublicKey: bot.publicKey,
    integration: "slack",
    manifestHash: MANIFEST_HASH,
    op: "chat.post",
    args: { channel: { eq: "#standup" } },
    budget: { runs: 20, per_seconds: 86_400 },
    line: "Always allow",
    ttlSeconds: 86_400,
    now: NOW,
  });
}

const options = () => ({ bot, trustedMembers: [member.publicKey, stranger.publicKey], now: NOW + 10 });

describe("revoking a standing approval", () => {
  it("signs a revocation of a sealed approval and verifies it to the approval's aid", () => {
    const sealed = approval();
    const token = signRevocation({ member, grant: sealed, now: NOW + 5 });
    const verified = verifyApprovalRevocation(token, options());
    expect(verified.iat).toBe(NOW + 5);
    expect(verified.approval.op).toBe("chat.post");
    expect(revocationSignedBy(token, member.publicKey)).toBe(true);
  });

  it("attack: another member cannot revoke the member's approval", () => {
    const token = signRevocation({ member: stranger, grant: approval(), now: NOW });
    expect(refusal(() => verifyApprovalRevocation(token, options()))).toBe("bad_signature");
  });

  it("attack: another bot cannot open it, and a grant's verifier refuses it (and the other way round)", () => {
    const token = signRevocation({ member, grant: approval(), now: NOW });
    expect(refusal(() => verifyApprovalRevocation(token, { ...options(), bot: otherBot }))).toBe("not_for_this_bot");
    expect(refusal(() => verifyRevocation(token, options()))).toBe("malformed");
    const grant = issueGrant({
      member,
      botPublicKey: bot.publicKey,
      integration: "slack",
      manifestHash: MANIFEST_HASH,
      access: "write",
      credential: { kind: "pat", token: "xoxb-1" },
      ttlSeconds: 600,
      now: NOW,
    });
    const grantRevocation = signRevocation({ member, grant, now: NOW });
    expect(verifyRevocation(grantRevocation, options()).grant.integration).toBe("slack");
    expect(refusal(() => verifyApprovalRevocation(grantRevocation, options()))).toBe("malformed");
  });

  it("still refuses anything that is neither a sealed grant nor a sealed approval", () => {
    for (const sealed of ["es1.AAAA", "ea1.", "ea1.a b", `ea1.${"A".repeat(17_000)}`]) {
      expect(
        refusal(() => signRevocation({ member, grant: sealed, now: NOW })),
        sealed.slice(0, 10),
      ).toBe("malformed");
    }
  });
});

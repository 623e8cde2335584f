import { describe, expect, it } from "vitest";
import { connectionProblems } from "./connection-check.js";

const TWILIO = {
  base: "https://api.twilio.com/2010-04-01/Accounts/{account_sid}",
  tenant: { account_sid: { pattern: "^AC[0-9a-f]{32}$" } },
};
const ZENDESK = { base: "https://{subdomain}.zendesk.com/api/v2", tenant: { subdomain: { pattern: "[a-z0-9][a-z0-9-]{0,62}" } } };
const SID = `AC${"0123456789abcdef".repeat(2)}`;

describe("connectionProblems: tenant values follow the manifest's own pattern", () => {
  it("takes a Twilio Account SID, upper-case AC and 32 hex digits, in its path segment", () => {
    expect(connectionProblems(TWILIO, { account_sid: SID })).toEqual([]);
  });

  it("refuses a value off the declared pattern, a missing setting and a setting the manifest does not declare", () => {
    expect(connectionProblems(TWILIO, { account_sid: SID.toLowerCase() })).toEqual([
      { setting: "account_sid", message: "does not match the pattern the integration declares" },
    ]);
    expect(connectionProblems(TWILIO, { account_sid: "AC../../Other" })[0]?.setting).toBe("account_sid");
    expect(connectionProblems(TWILIO, {})).toEqual([{ setting: "account_sid", message: "is not set for this connection" }]);
    expect(connectionProblems(TWILIO, { account_sid: SID, region: "us1" })).toEqual([
      { setting: "region", message: "is not a tenant setting of this integration" },
    ]);
  });

  it("still holds a host value to one lowercase DNS label, whatever the pattern allows", () => {
    expect(connectionProblems(ZENDESK, { subdomain: "acme" })).toEqual([]);
    const loose = { base: ZENDESK.base, tenant: { subdomain: { pattern: ".*" } } };
    expect(connectionProblems(loose, { subdomain: "ACME" })[0]?.message).toMatch(/lowercase/);
    expect(connectionProblems(loose, { subdomain: "xn--pple-43d" })[0]?.message).toMatch(/xn--/);
  });

  it("a fixed base takes no setting", () => {
    expect(connectionProblems({ base: "https://api.github.com" }, undefined)).toEqual([]);
    expect(connectionProblems({ base: "https://api.github.com" }, { org: "acme" })).toHaveLength(1);
  });
});

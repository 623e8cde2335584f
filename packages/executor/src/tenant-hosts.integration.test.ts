import type { LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createExecutor } from "./create-executor.js";
import { createHardenedDispatcher } from "./hardened-dispatcher.js";
import { startThirdReleaseHarness, type ThirdReleaseHarness } from "./test-support/third-release-harness.js";
import { ACME_HOST, CLOUD_ID, FEATURES_HOST, thirdReleaseRegistry } from "./test-support/third-release-registry.js";

let harness: ThirdReleaseHarness;
beforeAll(async () => {
  harness = await startThirdReleaseHarness((request, reply) => reply.send({ ticket: { id: 42, subject: "Printer on fire", via: request.headers.host } }));
});
afterAll(() => harness.close());
beforeEach(() => harness.reset());

const credential = { token: "tok_tenant_1" };
const getTicket = { integration: "tenanted", op: "tickets.get", args: { id: "42" }, credential };

describe("tenant hosts: the connection's subdomain fills auth.base's host", () => {
  it("sends to the member's own host, with the fixed suffix and base path", async () => {
    const envelope = await harness.executor.run({ ...getTicket, connection: { subdomain: "acme" } });
    expect(envelope).toMatchObject({ status: "ok", data: { id: 42, subject: "Printer on fire" } });
    expect(harness.server.requests).toHaveLength(1);
    expect(harness.server.requests[0]).toMatchObject({ url: "/api/v2/tickets/42.json", headers: { host: ACME_HOST, authorization: "Bearer tok_tenant_1" } });
  });

  it("a missing connection, or one without the setting, is invalid_args naming it, and nothing is sent", async () => {
    for (const connection of [undefined, {}, { site: "acme" }]) {
      const envelope = await harness.executor.run(connection === undefined ? getTicket : { ...getTicket, connection });
      expect(envelope).toMatchObject({ status: "error", error: { code: "invalid_args", message: expect.stringContaining('setting "subdomain" is not set') } });
    }
    expect(harness.executor.validate({ integration: "tenanted", op: "tickets.get", args: { id: "42" } })).toMatchObject({ error: { code: "invalid_args" } });
    expect(harness.executor.validate({ integration: "tenanted", op: "tickets.get", args: { id: "42" }, connection: { subdomain: "acme" } })).toBeNull();
    expect(harness.sent()).toBe(0);
  });

  const attacks: [string, string][] = [
    ["a dot that adds a label", "evil.example."],
    ["a dot", "acme.evil"],
    ["user info", "evil.example@acme"],
    ["a port", "acme:443"],
    ["a slash", "evil.example/x"],
    ["a percent-encoded dot", "evil%2eexample"],
    ["a percent-encoded slash", "acme%2fx"],
    ["uppercase", "Acme"],
    ["punycode", "xn--acme-9ua"],
    ["an IDN look-alike (Cyrillic a)", "\u0430cme"],
    ["a full-width dot", "evil\uff0eexample"],
    ["64 characters", "a".repeat(64)],
    ["empty", ""],
    ["a leading hyphen", "-acme"],
    ["a NUL", "acme\u0000"],
    ["a question mark", "evil.example?"],
    ["a hash", "evil.example#"],
    ["a new fixed suffix", "other.tenant.example.com"],
    ["the suffix spelled again", `acme.${"tenant.example.com"}`],
  ];
  it.each(attacks)("refuses a subdomain with %s: invalid_args naming the setting, not its value, and nothing sent", async (_name, subdomain) => {
    const envelope = await harness.executor.run({ ...getTicket, connection: { subdomain } });
    expect(envelope).toMatchObject({ status: "error", error: { code: "invalid_args", message: expect.stringContaining('setting "subdomain"') } });
    if (subdomain.length > 2) expect(JSON.stringify(envelope)).not.toContain(JSON.stringify(subdomain).slice(1, -1));
    expect(harness.sent()).toBe(0);
  });

  it("a bot cannot set the tenant: an arg named like it is refused, or (where the op declares one) fills only its own query value", async () => {
    const refused = await harness.executor.run({ ...getTicket, args: { id: "42", subdomain: "other" }, connection: { subdomain: "acme" } });
    expect(refused).toMatchObject({ status: "error", error: { code: "invalid_args" } });
    expect(harness.sent()).toBe(0);
    const search = await harness.executor.run({
      integration: "tenanted",
      op: "tickets.search",
      args: { subdomain: "other" },
      credential,
      connection: { subdomain: "acme" },
    });
    expect(search.status).toBe("ok");
    expect(harness.other.requests).toHaveLength(0);
    expect(harness.server.requests[0]).toMatchObject({ url: "/api/v2/search.json?subdomain=other", headers: { host: ACME_HOST } });
  });

  it("an inherited setting is no setting: only the connection's own keys count", async () => {
    const connection = Object.create({ subdomain: "acme" }) as Record<string, string>;
    expect(await harness.executor.run({ ...getTicket, connection })).toMatchObject({ error: { code: "invalid_args" } });
    expect(harness.sent()).toBe(0);
  });

  it.each([["127.0.0.1"], ["10.1.2.3"], ["::1"], ["169.254.169.254"]])("a tenant host that resolves to %s is refused at connect time", async (address) => {
    const asked: string[] = [];
    const lookup: LookupFunction = (hostname, options, callback) => {
      asked.push(hostname);
      const family = address.includes(":") ? 6 : 4;
      const entries: LookupAddress[] = [{ address, family }];
      if (options.all === true) callback(null, entries);
      else callback(null, address, family);
    };
    const dispatcher = createHardenedDispatcher({ lookup });
    try {
      const executor = createExecutor({ registry: thirdReleaseRegistry(), dispatcher });
      const envelope = await executor.run({ ...getTicket, connection: { subdomain: "intranet" } });
      expect(envelope).toMatchObject({ status: "error", error: { code: "network_error", message: expect.stringMatching(/not public/) } });
      expect(JSON.stringify(envelope)).not.toContain(address);
      expect(asked).toEqual([`intranet.tenant.example.com`]);
    } finally {
      await dispatcher.close();
    }
  });
});

describe("tenant path segments: the connection's cloud id fills a segment of auth.base", () => {
  const getIssue = { integration: "pathtenant", op: "issues.get", args: { key: "ENG-7" }, credential };

  it("sends under /ex/jira/<cloudid>", async () => {
    const envelope = await harness.executor.run({ ...getIssue, connection: { cloudid: CLOUD_ID } });
    expect(envelope.status).toBe("ok");
    expect(harness.server.requests[0]).toMatchObject({ url: `/ex/jira/${CLOUD_ID}/rest/api/3/issue/ENG-7`, headers: { host: FEATURES_HOST } });
  });

  it.each([
    ["..", ".."],
    ["an encoded dot segment", "%2e%2e"],
    ["a slash", `${CLOUD_ID}/x`],
    ["another pattern", "not-a-cloud-id"],
    ["an encoded slash", "a%2fb"],
  ])("refuses %s, sending nothing", async (_name, cloudid) => {
    expect(await harness.executor.run({ ...getIssue, connection: { cloudid } })).toMatchObject({
      error: { code: "invalid_args", message: expect.stringContaining('"cloudid"') },
    });
    expect(harness.sent()).toBe(0);
  });
});

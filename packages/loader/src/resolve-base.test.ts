import { describe, expect, it } from "vitest";
import { loadRegistry } from "./load-registry.js";
import { resolveBase, resolveTenantUrl } from "./resolve-base.js";
import { validManifest } from "./__fixtures__/valid-manifest.js";

type Json = Record<string, unknown>;

function manifestWith(base: string, tenant: Json, oauth: Json = {}) {
  const json = validManifest() as Json & { auth: Json };
  json.auth.base = base;
  json.auth.tenant = tenant;
  Object.assign(json.auth.oauth as Json, oauth);
  const manifest = loadRegistry([{ file: "example.json", json }]).get("example");
  if (manifest === undefined) throw new Error("did not load");
  return manifest;
}

describe("resolveBase: a tenant host fixed per connection", () => {
  const zendesk = manifestWith(
    "https://{subdomain}.example.com/api/v2",
    { subdomain: { pattern: "[a-z0-9][a-z0-9-]{0,62}" } },
    {
      authorize_url: "https://{subdomain}.example.com/oauth/authorizations/new",
    },
  );

  it("fills the leftmost label and keeps the fixed suffix and path", () => {
    expect(resolveBase(zendesk, { subdomain: "acme" })).toEqual({ ok: true, base: { origin: "https://acme.example.com", basePath: "/api/v2" } });
    expect(resolveTenantUrl(zendesk, "https://{subdomain}.example.com/oauth/authorizations/new", { subdomain: "acme-eu" })).toEqual({
      ok: true,
      url: "https://acme-eu.example.com/oauth/authorizations/new",
    });
  });

  const attacks: [string, unknown][] = [
    ["missing", undefined],
    ["empty", ""],
    ["a dot (another label)", "evil.com."],
    ["a dot in the middle", "acme.evil"],
    ["user info", "evil.com@acme"],
    ["a port", "acme:8443"],
    ["a slash", "evil.com/x"],
    ["a percent-encoded dot", "acme%2eevil"],
    ["uppercase", "ACME"],
    ["punycode", "xn--80ak6aa92e"],
    ["an IDN letter", "аcme"],
    ["a full-width dot", "acme\uff0eevil"],
    ["64 characters", "a".repeat(64)],
    ["a leading hyphen", "-acme"],
    ["a trailing hyphen", "acme-"],
    ["a space", "ac me"],
    ["a non-string", 42],
  ];
  it.each(attacks)("refuses a value that is %s, naming the setting and not the value", (_name, value) => {
    const result = resolveBase(zendesk, value === undefined ? {} : ({ subdomain: value } as unknown as Record<string, string>));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems[0]?.setting).toBe("subdomain");
    if (typeof value === "string" && value.length > 1) expect(result.problems[0]?.message).not.toContain(value);
  });

  it("refuses a value the declared pattern does not allow", () => {
    const strict = manifestWith("https://{subdomain}.example.com", { subdomain: { pattern: "[a-z]{3,10}" } });
    expect(resolveBase(strict, { subdomain: "acme" }).ok).toBe(true);
    const result = resolveBase(strict, { subdomain: "ac" });
    expect(result).toMatchObject({ ok: false, problems: [{ setting: "subdomain", message: expect.stringMatching(/pattern/) }] });
  });

  it("takes no inherited value: a connection without its own setting is missing it", () => {
    const connection = Object.create({ subdomain: "acme" }) as Record<string, string>;
    expect(resolveBase(zendesk, connection)).toMatchObject({ ok: false, problems: [{ setting: "subdomain", message: expect.stringMatching(/not set/) }] });
  });
});

describe("resolveBase: a tenant path segment", () => {
  const jira = manifestWith("https://api.example.com/ex/jira/{cloudid}", { cloudid: { pattern: "[0-9a-f-]{36}" } });
  const cloudid = "11223344-a1b2-3b33-c444-def123456789";

  it("fills one whole segment", () => {
    expect(resolveBase(jira, { cloudid })).toEqual({ ok: true, base: { origin: "https://api.example.com", basePath: `/ex/jira/${cloudid}` } });
  });

  it.each([
    ["..", ".."],
    ["a dot segment", "."],
    ["a slash", "a/b"],
    ["an encoded slash", "a%2fb"],
    ["an encoded dot", "%2e%2e"],
  ])("refuses %s", (_name, value) => {
    expect(resolveBase(jira, { cloudid: value }).ok).toBe(false);
  });
});

describe("resolveBase: a fixed base", () => {
  it("resolves to itself and ignores any connection", () => {
    const manifest = loadRegistry([{ file: "example.json", json: validManifest() }]).get("example");
    if (manifest === undefined) throw new Error("did not load");
    expect(resolveBase(manifest, { subdomain: "evil" })).toEqual({ ok: true, base: { origin: "https://api.example.com", basePath: "/v2" } });
  });
});

import { describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import { PUBLIC_URL, RETURN_TO, randomKey, testRegistry } from "../__fixtures__/test-registry.js";
import { BrokerConfigError, publicUrlProblem, returnToProblem, validateBrokerSettings } from "./config.js";

const valid = { publicUrl: PUBLIC_URL, stateKey: randomKey(), allowedReturnTo: [RETURN_TO] };

describe("validateBrokerSettings", () => {
  it("accepts a complete configuration", () => {
    const result = validateBrokerSettings({ ...valid, oldStateKeys: [randomKey()], oauthApps: { github: { clientId: "id", clientSecret: "secret" } } });
    expect(result.ok).toBe(true);
  });

  it("names every missing value", () => {
    const result = validateBrokerSettings({});
    expect(result).toEqual({
      ok: false,
      issues: [
        { path: "publicUrl", message: "is required" },
        { path: "stateKey", message: "is required" },
        { path: "allowedReturnTo", message: "is required (an empty list refuses every connect)" },
      ],
    });
  });

  it("names every malformed value without echoing a secret", () => {
    const secret = "a-client-secret-that-must-not-be-echoed\n";
    const result = validateBrokerSettings({
      publicUrl: "http://broker.example.com/",
      stateKey: "c2hvcnQ",
      oldStateKeys: ["not base64url!"],
      oauthApps: { github: { clientId: "", clientSecret: secret }, "Bad Id": { clientId: "x", clientSecret: "y" }, gitlab: { clientId: "x" } },
      allowedReturnTo: ["https://app.example.com/done#frag", "javascript:alert(1)"],
      extra: true,
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const byPath = Object.fromEntries(result.issues.map((issue) => [issue.path, issue.message]));
    expect(byPath.publicUrl).toBe("must use https");
    expect(byPath.stateKey).toBe("must be 32 bytes of unpadded base64url (43 characters)");
    expect(byPath["oldStateKeys[0]"]).toBe("must be 32 bytes of unpadded base64url (43 characters)");
    expect(byPath["oauthApps.github.clientId"]).toBe("must not be empty");
    expect(byPath["oauthApps.github.clientSecret"]).toBe("must not hold control characters");
    expect(byPath["oauthApps.gitlab.clientSecret"]).toBe("is required");
    expect(byPath["allowedReturnTo[0]"]).toContain("must not hold a fragment");
    expect(byPath["allowedReturnTo[1]"]).toContain("must be https");
    expect(byPath["oauthApps.Bad Id"]).toBe("is not an integration id (a lowercase slug)");
    expect(byPath.extra).toBe("is not a known setting");
    expect(JSON.stringify(result.issues)).not.toContain("a-client-secret");
  });

  it("publicUrl must be an https origin and nothing more", () => {
    expect(publicUrlProblem("https://broker.example.com")).toBeUndefined();
    expect(publicUrlProblem("https://broker.example.com:8443")).toBeUndefined();
    expect(publicUrlProblem("https://broker.example.com/")).toContain("origin only");
    expect(publicUrlProblem("https://broker.example.com/prefix")).toContain("origin only");
    expect(publicUrlProblem("https://Broker.example.com")).toContain("origin only");
    expect(publicUrlProblem("http://broker.example.com")).toBe("must use https");
    expect(publicUrlProblem("broker.example.com")).toContain("absolute");
  });

  it("return_to: https, http on loopback, or a reverse-domain app scheme; never a fragment or user info", () => {
    for (const ok of [
      "https://app.example.com/done",
      "https://app.example.com/done?x=1",
      "http://127.0.0.1:3000/cb",
      "http://localhost/cb",
      "com.example.app:/oauth",
    ]) {
      expect(returnToProblem(ok), ok).toBeUndefined();
    }
    for (const bad of [
      "http://app.example.com/cb",
      "https://user:pw@app.example.com/",
      "https://app.example.com/#",
      "javascript:alert(1)",
      "data:text/html,x",
      "file:///etc/passwd",
      "myapp:/cb",
      "relative/path",
      "https://app.example.com/a b",
    ]) {
      expect(returnToProblem(bad), bad).toBeDefined();
    }
  });
});

describe("buildApp configuration", () => {
  it("throws a BrokerConfigError listing every problem", () => {
    let thrown: unknown;
    try {
      buildApp({ registry: testRegistry(), publicUrl: "http://x", stateKey: "bad", allowedReturnTo: [] });
    } catch (error) {
      thrown = error;
    }
    expect(BrokerConfigError.isInstance(thrown)).toBe(true);
    const error = thrown as BrokerConfigError;
    expect(error.issues.map((issue) => issue.path)).toEqual(["publicUrl", "stateKey"]);
    expect(error.message).toContain("publicUrl: must use https");
  });

  it("starts with an OAuth manifest that has no app, and warns about it once", async () => {
    const logs: string[] = [];
    const app = buildApp({
      registry: testRegistry(),
      ...valid,
      logger: { level: "info", stream: { write: (line: string) => void logs.push(line) } },
    });
    await app.ready();
    const warnings = logs.map((line) => JSON.parse(line)).filter((entry) => entry.level === 40);
    expect(warnings.map((entry) => entry.integrations)).toEqual([["noapp", "testauth"]]);
    const catalog = (await app.inject({ method: "GET", url: "/registry" })).json();
    expect(catalog.integrations.filter((entry: { oauth_available?: boolean }) => entry.oauth_available === false)).toHaveLength(2);
    await app.close();
  });

  it("refuses to start with an app for an integration that has no OAuth, or that does not exist, naming each", () => {
    let thrown: unknown;
    try {
      buildApp({
        registry: testRegistry(),
        ...valid,
        oauthApps: { patonly: { clientId: "x", clientSecret: "y-secret-value" }, gihtub: { clientId: "x", clientSecret: "z-secret-value" } },
      });
    } catch (error) {
      thrown = error;
    }
    expect(BrokerConfigError.isInstance(thrown)).toBe(true);
    const error = thrown as BrokerConfigError;
    expect(error.issues).toEqual([
      { path: "oauthApps.patonly", message: expect.stringContaining('PAT Only ("patonly") has no OAuth in the registry') },
      { path: "oauthApps.gihtub", message: expect.stringContaining('no integration "gihtub"') },
    ]);
    expect(error.message).toContain("oauthApps.patonly");
    expect(error.message).not.toContain("secret-value");
  });
});

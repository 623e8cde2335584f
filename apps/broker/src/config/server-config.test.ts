import { describe, expect, it } from "vitest";
import { DEVELOPMENT_PUBLIC_URL, loadServerConfig } from "./server-config.js";
import { PUBLIC_URL, RETURN_TO, randomKey } from "../__fixtures__/test-registry.js";

const files = (contents: Record<string, string>, modes: Record<string, number> = {}) => ({
  readFile: (path: string) => {
    const text = contents[path];
    if (text === undefined) throw Object.assign(new Error("missing"), { code: "ENOENT" });
    return text;
  },
  fileMode: (path: string) => modes[path] ?? 0o100600,
});

describe("loadServerConfig", () => {
  it("runs a development configuration when nothing is configured, and says so", () => {
    const result = loadServerConfig({});
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.development).toBe(true);
    expect(result.value.settings.publicUrl).toBe(DEVELOPMENT_PUBLIC_URL);
    expect(result.value.settings.stateKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(result.value.settings.allowedReturnTo).toEqual([]);
    expect([result.value.host, result.value.port]).toEqual(["127.0.0.1", 8080]);
    expect(result.value.warnings.join(" ")).toContain("ephemeral state key");
    const again = loadServerConfig({});
    expect(again.ok && again.value.settings.stateKey).not.toBe(result.value.settings.stateKey);
  });

  it("refuses to invent a configuration in production", () => {
    const result = loadServerConfig({ NODE_ENV: "production" });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.issues[0]?.path).toBe("BROKER_CONFIG_FILE");
  });

  it("reads the BROKER_* variables, with the OAuth apps from their own file", () => {
    const stateKey = randomKey();
    const old = randomKey();
    const result = loadServerConfig(
      {
        BROKER_PUBLIC_URL: PUBLIC_URL,
        BROKER_STATE_KEY: stateKey,
        BROKER_STATE_KEYS_OLD: ` ${old} ,`,
        BROKER_ALLOWED_RETURN_TO: `${RETURN_TO}, com.example.app:/done`,
        BROKER_OAUTH_APPS_FILE: "/secrets/apps.json",
        BROKER_REGISTRY_DIR: "/srv/manifests",
        HOST: "0.0.0.0",
        PORT: "9000",
        BROKER_LOG_LEVEL: "warn",
      },
      files({ "/secrets/apps.json": JSON.stringify({ github: { clientId: "gh", clientSecret: "gh-secret" } }) }),
    );
    expect(result).toEqual({
      ok: true,
      value: {
        host: "0.0.0.0",
        port: 9000,
        logLevel: "warn",
        registryDir: "/srv/manifests",
        development: false,
        warnings: [],
        settings: {
          publicUrl: PUBLIC_URL,
          stateKey,
          oldStateKeys: [old],
          allowedReturnTo: [RETURN_TO, "com.example.app:/done"],
          oauthApps: { github: { clientId: "gh", clientSecret: "gh-secret" } },
        },
      },
    });
  });

  it("names each missing or malformed variable, never its value", () => {
    const result = loadServerConfig(
      {
        BROKER_PUBLIC_URL: "http://broker.example.com",
        BROKER_STATE_KEY: "super-secret-but-short",
        BROKER_ALLOWED_RETURN_TO: "https://ok.example.com/,http://evil.example.com/",
        BROKER_OAUTH_APPS_FILE: "/apps.json",
        PORT: "99999",
        BROKER_LOG_LEVEL: "loud",
      },
      files({ "/apps.json": JSON.stringify({ github: { clientId: "gh" } }) }),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((issue) => issue.path)).toEqual([
      "PORT",
      "BROKER_LOG_LEVEL",
      "BROKER_PUBLIC_URL",
      "BROKER_STATE_KEY",
      "/apps.json: github.clientSecret",
      "BROKER_ALLOWED_RETURN_TO (entry 2)",
    ]);
    expect(JSON.stringify(result.issues)).not.toContain("super-secret");
    expect(loadServerConfig({ BROKER_PUBLIC_URL: PUBLIC_URL })).toMatchObject({
      ok: false,
      issues: [
        { path: "BROKER_STATE_KEY", message: "is required" },
        { path: "BROKER_ALLOWED_RETURN_TO", message: "is required (an empty list refuses every connect)" },
      ],
    });
  });

  it("reports an unreadable or broken secrets file without quoting it", () => {
    const base = { BROKER_PUBLIC_URL: PUBLIC_URL, BROKER_STATE_KEY: randomKey(), BROKER_ALLOWED_RETURN_TO: RETURN_TO };
    const missing = loadServerConfig({ ...base, BROKER_OAUTH_APPS_FILE: "/nope.json" }, files({}));
    expect(missing).toMatchObject({ ok: false, issues: [{ path: "BROKER_OAUTH_APPS_FILE", message: "cannot read /nope.json: ENOENT" }] });
    const broken = loadServerConfig({ ...base, BROKER_OAUTH_APPS_FILE: "/apps.json" }, files({ "/apps.json": '{"github": {"clientSecret": "s3cr3t-value' }));
    expect(broken).toMatchObject({ ok: false, issues: [{ path: "BROKER_OAUTH_APPS_FILE", message: "/apps.json is not valid JSON" }] });
    expect(JSON.stringify(broken)).not.toContain("s3cr3t");
  });

  it("reads BROKER_CONFIG_FILE, resolving registryDir beside it and warning about ignored variables and loose permissions", () => {
    const stateKey = randomKey();
    const file = JSON.stringify({ publicUrl: PUBLIC_URL, stateKey, allowedReturnTo: [RETURN_TO], oauthApps: {}, port: 0, registryDir: "manifests" });
    const result = loadServerConfig(
      { BROKER_CONFIG_FILE: "/etc/broker/broker.json", BROKER_PUBLIC_URL: "https://ignored.example.com", PORT: "1234" },
      files({ "/etc/broker/broker.json": file }, { "/etc/broker/broker.json": 0o100644 }),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.port).toBe(0);
    expect(result.value.registryDir).toBe("/etc/broker/manifests");
    expect(result.value.settings).toEqual({ publicUrl: PUBLIC_URL, stateKey, allowedReturnTo: [RETURN_TO], oauthApps: {} });
    expect(result.value.warnings).toEqual([
      "BROKER_CONFIG_FILE is set, so BROKER_PUBLIC_URL is ignored",
      "/etc/broker/broker.json holds secrets and others can read it: chmod 600 /etc/broker/broker.json",
    ]);
  });

  it("names the file and key of each problem in BROKER_CONFIG_FILE", () => {
    const file = JSON.stringify({
      publicUrl: "https://broker.example.com/x",
      stateKey: randomKey(),
      allowedReturnTo: "https://one.example.com",
      colour: "blue",
    });
    const result = loadServerConfig({ BROKER_CONFIG_FILE: "/b.json" }, files({ "/b.json": file }));
    expect(result).toMatchObject({
      ok: false,
      issues: [
        { path: "/b.json: publicUrl", message: expect.stringContaining("origin only") },
        { path: "/b.json: allowedReturnTo", message: "must be a list of strings" },
        { path: "/b.json: colour", message: "is not a known setting" },
      ],
    });
  });
});

import { describe, expect, it } from "vitest";
import { loadServerConfig } from "../config/server-config.js";

const KEY = "k".repeat(43);
const environment = {
  BROKER_PUBLIC_URL: "https://broker.example.test",
  BROKER_STATE_KEY: KEY,
  BROKER_ALLOWED_RETURN_TO: "https://app.example.test/done",
  BROKER_WEBHOOK_SECRETS_FILE: "/etc/eleven/webhook-secrets.json",
};

describe("webhookSecrets from the file BROKER_WEBHOOK_SECRETS_FILE names, like client secrets", () => {
  it("reads { integration: secret | [secrets] } from the file, and warns when others can read it", () => {
    const files: Record<string, string> = { "/etc/eleven/webhook-secrets.json": '{ "github": "gh-secret-value", "box": ["primary-key", "secondary-key"] }' };
    const loaded = loadServerConfig(environment, { readFile: (path) => files[path] as string, fileMode: () => 0o644 });
    expect(loaded.ok && loaded.value.settings.webhookSecrets).toEqual({ github: "gh-secret-value", box: ["primary-key", "secondary-key"] });
    expect(loaded.ok && loaded.value.warnings.join("\n")).toContain("/etc/eleven/webhook-secrets.json");
  });

  it("names a malformed entry by its integration, never quoting a secret", () => {
    const loaded = loadServerConfig(environment, { readFile: () => '{ "github": 12345678901, "Bad Id": "leaky-secret-value" }', fileMode: () => 0o600 });
    expect(loaded.ok).toBe(false);
    const text = JSON.stringify(loaded.ok ? [] : loaded.issues);
    expect(text).toContain("BROKER_WEBHOOK_SECRETS_FILE");
    expect(text).not.toContain("leaky-secret-value");
    expect(text).not.toContain("12345678901");
  });

  it("takes webhookSecrets from the BROKER_CONFIG_FILE file as well", () => {
    const file = JSON.stringify({ publicUrl: environment.BROKER_PUBLIC_URL, stateKey: KEY, allowedReturnTo: [], webhookSecrets: { slack: "slack-secret" } });
    const loaded = loadServerConfig({ BROKER_CONFIG_FILE: "/etc/eleven/broker.json" }, { readFile: () => file, fileMode: () => 0o600 });
    expect(loaded.ok && loaded.value.settings.webhookSecrets).toEqual({ slack: "slack-secret" });
  });
});

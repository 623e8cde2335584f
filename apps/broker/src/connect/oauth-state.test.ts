import { ready, secretboxSeal } from "@eleven-integrations/grants";
import { beforeAll, describe, expect, it } from "vitest";
import { randomKey } from "../__fixtures__/test-registry.js";
import { MAX_STATE_LENGTH, openState, sealState, STATE_TTL_SECONDS } from "./oauth-state.js";

const NOW = 1_800_000_000;
const flow = {
  integration: "testauth",
  verifier: "v".repeat(43),
  clientKey: "k".repeat(43),
  returnTo: "https://app.example.test/connected",
  browser: "b".repeat(43),
};
const key = randomKey();

beforeAll(async () => {
  await ready();
});

describe("OAuth state", () => {
  it("round-trips the flow with an expiry ten minutes out", () => {
    const sealed = sealState(flow, key, NOW);
    expect(sealed).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(openState(sealed, [key], NOW + STATE_TTL_SECONDS - 1)).toEqual({ ok: true, state: { ...flow, exp: NOW + STATE_TTL_SECONDS } });
  });

  it("carries a tenant host's settings sealed, and refuses a box whose connection is not a tenant setting", () => {
    const sealed = sealState({ ...flow, connection: { subdomain: "acme" } }, key, NOW);
    expect(openState(sealed, [key], NOW)).toEqual({ ok: true, state: { ...flow, connection: { subdomain: "acme" }, exp: NOW + STATE_TTL_SECONDS } });
    const payload = {
      v: 1,
      typ: "eleven.broker.oauth-state",
      integration: flow.integration,
      verifier: flow.verifier,
      client_key: flow.clientKey,
      return_to: flow.returnTo,
      browser: flow.browser,
      exp: NOW + 60,
    };
    expect(openState(secretboxSeal(JSON.stringify({ ...payload, connection: { subdomain: 42 } }), key), [key], NOW)).toEqual({ ok: false, reason: "invalid" });
    expect(openState(secretboxSeal(JSON.stringify({ ...payload, connection: { "Sub-Domain": "acme" } }), key), [key], NOW)).toEqual({
      ok: false,
      reason: "invalid",
    });
  });

  it("hides what it carries: neither the verifier nor return_to appear in the sealed value", () => {
    const sealed = sealState(flow, key, NOW);
    const decoded = Buffer.from(sealed, "base64url").toString("latin1");
    expect(decoded).not.toContain(flow.verifier);
    expect(decoded).not.toContain("app.example.test");
  });

  it("is expired from its exp on", () => {
    const sealed = sealState(flow, key, NOW);
    expect(openState(sealed, [key], NOW + STATE_TTL_SECONDS)).toEqual({ ok: false, reason: "expired" });
  });

  it("refuses a state claiming a lifetime longer than ten minutes, even under the right key", () => {
    const sealed = sealState(flow, key, NOW + 3600);
    expect(openState(sealed, [key], NOW)).toEqual({ ok: false, reason: "invalid" });
  });

  it("opens with an older key kept for rotation, and not with a foreign one", () => {
    const sealed = sealState(flow, key, NOW);
    expect(openState(sealed, [randomKey(), key], NOW).ok).toBe(true);
    expect(openState(sealed, [randomKey()], NOW)).toEqual({ ok: false, reason: "invalid" });
  });

  it("refuses every altered byte", () => {
    const sealed = Buffer.from(sealState(flow, key, NOW), "base64url");
    for (let index = 0; index < sealed.length; index += 7) {
      const altered = Buffer.from(sealed);
      altered[index] = (altered[index] as number) ^ 1;
      expect(openState(altered.toString("base64url"), [key], NOW)).toEqual({ ok: false, reason: "invalid" });
    }
  });

  it("refuses a box of the right key that is not a state, and anything over-long, unopened", () => {
    for (const payload of ["not json", JSON.stringify({ ...flow, v: 1 }), JSON.stringify({ v: 1, typ: "eleven.broker.oauth-state" }), "\u00ff\u00fe"]) {
      expect(openState(secretboxSeal(payload, key), [key], NOW)).toEqual({ ok: false, reason: "invalid" });
    }
    expect(openState("A".repeat(MAX_STATE_LENGTH + 1), [key], NOW)).toEqual({ ok: false, reason: "invalid" });
    expect(openState("", [key], NOW)).toEqual({ ok: false, reason: "invalid" });
    expect(openState("***", [key], NOW)).toEqual({ ok: false, reason: "invalid" });
  });
});

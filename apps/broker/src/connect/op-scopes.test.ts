import { generateBotKeys, ready } from "@eleven-integrations/grants";
import type { FastifyInstance } from "fastify";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { testApp } from "../__fixtures__/test-app.js";
import { RETURN_TO, oauthManifest, testRegistry } from "../__fixtures__/test-registry.js";
import { openState } from "./oauth-state.js";

let app: FastifyInstance;
let clientKey: string;
beforeAll(async () => {
  await ready();
  clientKey = generateBotKeys().publicKey;
});
afterEach(async () => {
  await app.close();
});

/** The test manifest with per-op scopes: a write that needs notes.write, a read that adds nothing new. */
function scopedRegistry() {
  const manifest = structuredClone(oauthManifest);
  const ops: Record<string, unknown>[] = [
    { ...manifest.ops[0], scopes: ["openid", "profile"] },
    { ...manifest.ops[1], scopes: ["notes.write"] },
  ];
  return testRegistry([{ ...manifest, ops }]);
}

function start(ops?: string): string {
  const search = new URLSearchParams({ client_key: clientKey, return_to: RETURN_TO, ...(ops === undefined ? {} : { ops }) });
  return `/connect/testauth/start?${search}`;
}

describe("per-op scopes at connect (issue 38)", () => {
  it("asks the manifest's scopes alone when no op is named", async () => {
    const built = testApp({ registry: scopedRegistry() });
    app = built.app;
    const response = await app.inject({ method: "GET", url: start() });
    expect(new URL(response.headers.location as string).searchParams.get("scope")).toBe("openid");
  });

  it("asks the union of the manifest's scopes and the named ops' scopes, each once, and seals the ops in the state", async () => {
    const built = testApp({ registry: scopedRegistry(), now: () => 1_800_000_000 });
    app = built.app;
    const response = await app.inject({ method: "GET", url: start("notes.create,me.get") });
    expect(response.statusCode).toBe(302);
    const parameters = new URL(response.headers.location as string).searchParams;
    expect(parameters.get("scope")).toBe("openid profile notes.write");
    const opened = openState(parameters.get("state") as string, [built.config.stateKey], 1_800_000_000);
    expect(opened.ok && opened.state.ops).toEqual(["notes.create", "me.get"]);
    const readOnly = await app.inject({ method: "GET", url: start("me.get") });
    expect(new URL(readOnly.headers.location as string).searchParams.get("scope")).toBe("openid profile");
  });

  it("refuses an op the manifest does not have, before any state exists", async () => {
    app = testApp({ registry: scopedRegistry() }).app;
    for (const ops of ["notes.delete", "notes.create,,me.get", "NOTES.CREATE"]) {
      const response = await app.inject({ method: "GET", url: start(ops) });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: { code: "invalid_query" } });
      expect(response.headers["set-cookie"]).toBeUndefined();
    }
  });
});

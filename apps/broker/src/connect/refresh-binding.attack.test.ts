// Third review, item 11 (from the second review, partly fixed): a leaked refresh token
// minted tokens for any client key. Now a refresh token refreshes only for the client
// key that connected, proven by the bundle's refresh_binding, which the broker sealed
// to that key; a caller without it reaches no provider.
import { generateBotKeys, openSealed, ready } from "@eleven-integrations/grants";
import type { FastifyInstance } from "fastify";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { mockTokenEndpoint } from "../__fixtures__/mock-token-endpoint.js";
import { testApp } from "../__fixtures__/test-app.js";
import { AUTH_ORIGIN, RETURN_TO, randomKey } from "../__fixtures__/test-registry.js";
import type { TokenBundle } from "./token-bundle.js";

type Keys = { publicKey: string; secretKey: string };
let app: FastifyInstance;
let member: Keys;
let attacker: Keys;

beforeAll(async () => {
  await ready();
  member = generateBotKeys();
  attacker = generateBotKeys();
});
afterEach(async () => {
  await app.close();
});

/** A member connects through the real start and callback; the bundle the member client opens. */
async function connect(endpoint: ReturnType<typeof mockTokenEndpoint>): Promise<TokenBundle> {
  const start = await app.inject({ method: "GET", url: `/connect/testauth/start?client_key=${member.publicKey}&return_to=${encodeURIComponent(RETURN_TO)}` });
  const state = new URL(start.headers.location as string).searchParams.get("state") as string;
  const cookie = String(start.headers["set-cookie"]).split(";")[0] as string;
  endpoint.answer({ status: 200, body: { access_token: "at-1", token_type: "Bearer", expires_in: 3600, refresh_token: "rt-leaked" } });
  const callback = await app.inject({
    method: "GET",
    url: `/connect/callback?${new URLSearchParams({ code: "c", state, iss: AUTH_ORIGIN })}`,
    headers: { cookie, accept: "application/json" },
  });
  const sealed = decodeURIComponent((callback.headers.location as string).slice(`${RETURN_TO}#tokens=`.length));
  return JSON.parse(new TextDecoder().decode(openSealed(sealed, member))) as TokenBundle;
}

function refresh(body: Record<string, unknown>) {
  return app.inject({ method: "POST", url: "/connect/testauth/refresh", headers: { "content-type": "application/json" }, payload: JSON.stringify(body) });
}

describe("a leaked refresh token (third review, item 11)", () => {
  it("mints nothing for another client key, with or without the leaked binding, and reaches no provider; the member still refreshes", async () => {
    const endpoint = mockTokenEndpoint();
    app = testApp({ dispatcher: endpoint.agent }).app;
    const bundle = await connect(endpoint);
    expect(bundle.refresh_binding).toMatch(/^rb1\.[A-Za-z0-9_-]{43}$/);
    const exchanges = endpoint.requests.length;

    // The attacker holds the member's whole bundle (refresh token and binding), but not the member's key.
    for (const stolen of [
      { refresh_token: bundle.refresh_token, client_key: attacker.publicKey },
      { refresh_token: bundle.refresh_token, client_key: attacker.publicKey, refresh_binding: bundle.refresh_binding },
      { refresh_token: bundle.refresh_token, client_key: attacker.publicKey, refresh_binding: "rb1.AAAA" },
    ]) {
      const answer = await refresh(stolen);
      expect([answer.statusCode, answer.json().error.code]).toEqual([400, "refresh_not_bound"]);
    }
    // A binding of another token, or of this token under another integration's name, does not pass either.
    const other = await refresh({ refresh_token: "rt-other", client_key: member.publicKey, refresh_binding: bundle.refresh_binding });
    expect(other.json().error.code).toBe("refresh_not_bound");
    expect(endpoint.requests.length).toBe(exchanges);

    // The member, with its own key and the binding, refreshes; the new bundle binds the rotated token to the same key.
    endpoint.answer({ status: 200, body: { access_token: "at-2", token_type: "Bearer", refresh_token: "rt-rotated" } });
    const answer = await refresh({ refresh_token: bundle.refresh_token, client_key: member.publicKey, refresh_binding: bundle.refresh_binding });
    expect(answer.statusCode).toBe(200);
    const rotated = JSON.parse(new TextDecoder().decode(openSealed(answer.json().tokens as string, member))) as TokenBundle;
    expect(rotated.refresh_token).toBe("rt-rotated");
    expect(rotated.refresh_binding).not.toBe(bundle.refresh_binding);
    const stolenAgain = await refresh({ refresh_token: "rt-rotated", client_key: attacker.publicKey, refresh_binding: rotated.refresh_binding });
    expect(stolenAgain.json().error.code).toBe("refresh_not_bound");
    expect(endpoint.requests.length).toBe(exchanges + 1);
  });

  it("a binding holds across a state key rotation, and one made under a key the broker never had does not", async () => {
    const endpoint = mockTokenEndpoint();
    const built = testApp({ dispatcher: endpoint.agent });
    app = built.app;
    const bundle = await connect(endpoint);
    await app.close();
    // Rotated: the old key only opens (and verifies) now.
    app = testApp({ dispatcher: endpoint.agent, stateKey: randomKey(), oldStateKeys: [built.config.stateKey] }).app;
    endpoint.answer({ status: 200, body: { access_token: "at-2", token_type: "Bearer" } });
    const kept = await refresh({ refresh_token: bundle.refresh_token, client_key: member.publicKey, refresh_binding: bundle.refresh_binding });
    expect(kept.statusCode).toBe(200);
    await app.close();
    app = testApp({ dispatcher: endpoint.agent }).app;
    const foreign = await refresh({ refresh_token: bundle.refresh_token, client_key: member.publicKey, refresh_binding: bundle.refresh_binding });
    expect(foreign.json().error.code).toBe("refresh_not_bound");
  });
});

// Finding 5 of the second security review, as the attack: a connect link carrying an
// attacker's client_key and an allowed app-scheme return_to, clicked in the victim's own
// browser. Before: 302 straight to the provider, the victim consents, the callback's cookie
// matches (the victim's browser started the flow) and the victim's tokens are sealed to the
// attacker's key and handed to whichever app claims the scheme.
import { generateBotKeys, ready } from "@eleven-integrations/grants";
import type { FastifyInstance } from "fastify";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { testApp } from "../__fixtures__/test-app.js";
import { AUTH_ORIGIN, PUBLIC_URL, RETURN_TO } from "../__fixtures__/test-registry.js";
import { BINDING_COOKIE } from "./browser-binding.js";
import { clientKeyCode } from "./start-confirmation.js";

const APP_SCHEME = "com.example.app:/connected";
let attacker: string;
let member: string;
let app: FastifyInstance;

beforeAll(async () => {
  await ready();
  attacker = generateBotKeys().publicKey;
  member = generateBotKeys().publicKey;
});
afterEach(async () => {
  await app?.close();
});

const link = (clientKey: string, returnTo = APP_SCHEME) => `/connect/testauth/start?client_key=${clientKey}&return_to=${encodeURIComponent(returnTo)}`;
const cookieOf = (setCookie: string | string[] | undefined) => String(Array.isArray(setCookie) ? setCookie[0] : setCookie).split(";")[0] as string;
const stateOf = (page: string) => /name="state" value="([^"]+)"/.exec(page)?.[1] ?? "";

describe("connect links someone else made (finding 5)", () => {
  it("the attacker's link in the victim's browser goes nowhere near the provider: a page shows the attacker's code, not the member's", async () => {
    app = testApp().app;
    const clicked = await app.inject({ method: "GET", url: link(attacker) });
    expect(clicked.statusCode).toBe(200);
    expect(clicked.headers.location).toBeUndefined();
    expect(clicked.body).not.toContain(AUTH_ORIGIN);
    expect(clicked.body).toContain(clientKeyCode(attacker));
    expect(clicked.body).not.toContain(clientKeyCode(member));
    expect(clicked.headers["content-security-policy"]).toContain("form-action 'self'");
  });

  it("a page of the attacker's cannot press continue for the victim: a cross-site post, or one without the victim's binding cookie, is refused", async () => {
    app = testApp().app;
    const clicked = await app.inject({ method: "GET", url: link(attacker) });
    const state = stateOf(clicked.body);
    const cookie = cookieOf(clicked.headers["set-cookie"]);
    const post = (headers: Record<string, string>) =>
      app.inject({
        method: "POST",
        url: "/connect/testauth/start/confirm",
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
        payload: new URLSearchParams({ state }).toString(),
      });
    // A cross-site auto-submitted form: the browser names the attacker's origin (and, SameSite=Lax, sends no cookie).
    const crossSite = await post({ origin: "https://attacker.example", cookie });
    expect(crossSite.statusCode).toBe(400);
    expect(crossSite.json().error.code).toBe("browser_mismatch");
    expect(crossSite.headers.location).toBeUndefined();
    // The attacker's own browser, holding the state but not the victim's cookie.
    const elsewhere = await post({ origin: PUBLIC_URL, cookie: `${BINDING_COOKIE}=${"A".repeat(43)}` });
    expect(elsewhere.json().error.code).toBe("browser_mismatch");
  });

  it("the member's own flow: their app's code on the page, continue posts from the broker's page in the same browser, then the provider", async () => {
    app = testApp().app;
    const started = await app.inject({ method: "GET", url: link(member) });
    expect(started.body).toContain(clientKeyCode(member));
    const state = stateOf(started.body);
    const confirmed = await app.inject({
      method: "POST",
      url: "/connect/testauth/start/confirm",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: PUBLIC_URL, cookie: cookieOf(started.headers["set-cookie"]) },
      payload: new URLSearchParams({ state }).toString(),
    });
    expect(confirmed.statusCode).toBe(303);
    const authorize = new URL(confirmed.headers.location as string);
    expect(authorize.origin).toBe(AUTH_ORIGIN);
    expect(authorize.searchParams.get("state")).toBe(state);
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    // A state of another integration, or garbage, does not pass.
    const other = await app.inject({
      method: "POST",
      url: "/connect/other/start/confirm",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: PUBLIC_URL, cookie: cookieOf(started.headers["set-cookie"]) },
      payload: new URLSearchParams({ state }).toString(),
    });
    expect(other.json().error.code).toBe("invalid_state");
  });

  it("a claimed https return_to still goes straight to the provider: the sealed tokens land only at the app's own origin", async () => {
    app = testApp().app;
    const started = await app.inject({ method: "GET", url: link(member, RETURN_TO) });
    expect(started.statusCode).toBe(302);
    expect(new URL(started.headers.location as string).origin).toBe(AUTH_ORIGIN);
  });

  it("gives one code per key, in the documented alphabet", () => {
    expect(clientKeyCode(member)).toMatch(/^[A-HJKMNP-TV-Z2-9]{4}-[A-HJKMNP-TV-Z2-9]{4}$/);
    expect(clientKeyCode(member)).toBe(clientKeyCode(member));
    expect(clientKeyCode(member)).not.toBe(clientKeyCode(attacker));
  });
});

import { describe, expect, it } from "vitest";
import { SECRETS, signLikeProvider, TOLERANCE } from "./__fixtures__/sign-like-providers.js";
import { WEBHOOK_DIALECTS, type WebhookDialect } from "./dialects/index.js";
import { MAX_WEBHOOK_BODY_BYTES } from "./limits.js";
import { verifyWebhook } from "./verify-webhook.js";

const NOW = 1_765_000_000;

/** The header each test tampers with (Graph's clientState lives in the body). */
const SIGNATURE_HEADER: Record<WebhookDialect, string | null> = {
  github: "X-Hub-Signature-256",
  slack: "X-Slack-Signature",
  stripe: "Stripe-Signature",
  "standard-webhooks": "webhook-signature",
  linear: "Linear-Signature",
  pagerduty: "X-PagerDuty-Signature",
  sentry: "Sentry-Hook-Signature",
  zendesk: "X-Zendesk-Webhook-Signature",
  intercom: "X-Hub-Signature",
  twilio: "X-Twilio-Signature",
  box: "box-signature-primary",
  "microsoft-graph": null,
  asana: "X-Hook-Signature",
  jira: "X-Hub-Signature",
};

function verify(dialect: WebhookDialect, request: ReturnType<typeof signLikeProvider>, secret: string | string[] | undefined = SECRETS[dialect], now = NOW) {
  return verifyWebhook({ dialect, secret, headers: request.headers, body: request.body, ...(request.url === undefined ? {} : { url: request.url }), now });
}

describe.each(WEBHOOK_DIALECTS.map((dialect) => [dialect] as const))("%s: attacks", (dialect) => {
  const header = SIGNATURE_HEADER[dialect];

  it("verifies what the provider would send", () => {
    expect(verify(dialect, signLikeProvider(dialect, SECRETS[dialect], NOW)).ok).toBe(true);
  });

  it("no secret configured: no_secret before the request is even read", () => {
    const request = signLikeProvider(dialect, SECRETS[dialect], NOW);
    for (const secret of [undefined, "", [], [""]]) {
      expect(verifyWebhook({ dialect, secret, headers: request.headers, body: request.body, now: NOW })).toEqual({ ok: false, reason: "no_secret" });
    }
    expect(verifyWebhook({ dialect, secret: null, headers: {}, body: Buffer.from("not even json"), now: NOW })).toEqual({ ok: false, reason: "no_secret" });
  });

  it("over 1 MiB: too_large before anything else, even with no secret and no signature", () => {
    const body = Buffer.alloc(MAX_WEBHOOK_BODY_BYTES + 1, 0x20);
    expect(verifyWebhook({ dialect, secret: undefined, headers: {}, body, now: NOW })).toEqual({ ok: false, reason: "too_large" });
    expect(verifyWebhook({ dialect, secret: SECRETS[dialect], headers: {}, body, now: NOW })).toEqual({ ok: false, reason: "too_large" });
    expect(verifyWebhook({ dialect, secret: SECRETS[dialect], headers: {}, body: Buffer.alloc(MAX_WEBHOOK_BODY_BYTES, 0x20), now: NOW }).ok === false).toBe(
      true,
    );
    expect(verifyWebhook({ dialect, secret: SECRETS[dialect], headers: {}, body: Buffer.alloc(MAX_WEBHOOK_BODY_BYTES, 0x20), now: NOW })).not.toEqual({
      ok: false,
      reason: "too_large",
    });
  });

  it("signed with another secret: bad_signature", () => {
    expect(
      verify(
        dialect,
        signLikeProvider(dialect, `${SECRETS[dialect]}x`.replace("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwx", "whsec_AAAA9r8GKYqrTwjUPD8ILPZIo2LaLaSw"), NOW),
      ),
    ).toEqual({
      ok: false,
      reason: "bad_signature",
    });
  });

  it("body altered by one byte: refused", () => {
    const request = signLikeProvider(dialect, SECRETS[dialect], NOW);
    const body = Buffer.from(request.body);
    const index = body.indexOf(dialect === "microsoft-graph" ? "created" : body.toString().slice(-3, -2));
    body[index] = (body[index] ?? 0) ^ 0x01;
    // Graph signs nothing but clientState: only a changed clientState is caught (tested below).
    if (dialect === "microsoft-graph") return expect(verify(dialect, { ...request, body }).ok).toBe(true);
    expect(verify(dialect, { ...request, body })).toEqual({ ok: false, reason: "bad_signature" });
  });

  it("a missing signature: missing_signature", () => {
    const request = signLikeProvider(dialect, SECRETS[dialect], NOW);
    if (header === null) {
      const body = Buffer.from(JSON.stringify({ value: [{ subscriptionId: "s1" }] }));
      return expect(verify(dialect, { headers: {}, body })).toEqual({ ok: false, reason: "missing_signature" });
    }
    const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => name !== header));
    expect(verify(dialect, { ...request, headers })).toEqual({ ok: false, reason: "missing_signature" });
  });

  it("a truncated signature: bad_signature", () => {
    const request = signLikeProvider(dialect, SECRETS[dialect], NOW);
    if (header === null) {
      const body = Buffer.from(JSON.stringify({ value: [{ subscriptionId: "s1", clientState: SECRETS[dialect].slice(0, -1) }] }));
      return expect(verify(dialect, { headers: {}, body })).toEqual({ ok: false, reason: "bad_signature" });
    }
    const value = request.headers[header] as string;
    for (const cut of [value.slice(0, -2), value.slice(0, -1), value.slice(0, value.length / 2)]) {
      expect(verify(dialect, { ...request, headers: { ...request.headers, [header]: cut } })).toEqual({ ok: false, reason: "bad_signature" });
    }
  });

  it("header names in any case", () => {
    const request = signLikeProvider(dialect, SECRETS[dialect], NOW);
    for (const change of [(name: string) => name.toLowerCase(), (name: string) => name.toUpperCase()]) {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [change(name), value]));
      expect(verify(dialect, { ...request, headers }).ok).toBe(true);
    }
  });

  it("a duplicated signature header: malformed, never one picked", () => {
    if (header === null) return expect(header).toBeNull();
    const request = signLikeProvider(dialect, SECRETS[dialect], NOW);
    const value = request.headers[header] as string;
    const asArray = verifyWebhook({
      dialect,
      secret: SECRETS[dialect],
      headers: { ...request.headers, [header]: [value, value] },
      body: request.body,
      now: NOW,
      ...(request.url ? { url: request.url } : {}),
    });
    expect(asArray).toEqual({ ok: false, reason: "malformed" });
    const twoCases = verify(dialect, {
      ...request,
      headers: { ...request.headers, [header.toLowerCase() === header ? header.toUpperCase() : header.toLowerCase()]: "sha256=00" },
    });
    expect(twoCases).toEqual({ ok: false, reason: "malformed" });
  });

  const tolerance = TOLERANCE[dialect];
  if (tolerance !== undefined) {
    it(`a timestamp more than ${tolerance}s in the past or the future: stale; at the edge: accepted`, () => {
      expect(verify(dialect, signLikeProvider(dialect, SECRETS[dialect], NOW - tolerance - 1))).toEqual({ ok: false, reason: "stale" });
      expect(verify(dialect, signLikeProvider(dialect, SECRETS[dialect], NOW + tolerance + 1))).toEqual({ ok: false, reason: "stale" });
      expect(verify(dialect, signLikeProvider(dialect, SECRETS[dialect], NOW - tolerance)).ok).toBe(true);
      expect(verify(dialect, signLikeProvider(dialect, SECRETS[dialect], NOW + tolerance)).ok).toBe(true);
    });
  }
});

describe("rotation and dialect specifics", () => {
  it("several configured secrets, one of them passing is enough (rotation)", () => {
    const request = signLikeProvider("github", "new-secret", NOW);
    expect(verifyWebhook({ dialect: "github", secret: ["old-secret", "new-secret"], headers: request.headers, body: request.body, now: NOW }).ok).toBe(true);
  });

  it("stripe: one of several v1 signatures passes; a v0 alone is not enough", () => {
    const request = signLikeProvider("stripe", SECRETS.stripe, NOW);
    const [stamp, v1] = (request.headers["Stripe-Signature"] as string).split(",") as [string, string];
    const several = `${stamp},v1=${"0".repeat(64)},${v1}`;
    expect(verify("stripe", { ...request, headers: { "Stripe-Signature": several } }).ok).toBe(true);
    expect(verify("stripe", { ...request, headers: { "Stripe-Signature": `${stamp},v0=${v1.slice(3)}` } })).toEqual({ ok: false, reason: "missing_signature" });
  });

  it("pagerduty: one of several v1 signatures passes", () => {
    const request = signLikeProvider("pagerduty", SECRETS.pagerduty, NOW);
    const header = `v1=${"ab".repeat(32)},${request.headers["X-PagerDuty-Signature"]}`;
    expect(verify("pagerduty", { ...request, headers: { "X-PagerDuty-Signature": header } }).ok).toBe(true);
  });

  it("box: the secondary signature under the secondary key passes; a primary key never checks the secondary signature", () => {
    const signed = signLikeProvider("box", "secondary-key", NOW);
    const headers = { ...signed.headers, "box-signature-secondary": signed.headers["box-signature-primary"] as string, "box-signature-primary": "AAAA" };
    expect(verifyWebhook({ dialect: "box", secret: ["primary-key", "secondary-key"], headers, body: signed.body, now: NOW })).toEqual({
      ok: true,
      timestamp: NOW,
    });
    expect(verifyWebhook({ dialect: "box", secret: ["secondary-key"], headers, body: signed.body, now: NOW })).toEqual({ ok: false, reason: "bad_signature" });
  });

  it("twilio: no url given is malformed (the URL is signed)", () => {
    const request = signLikeProvider("twilio", SECRETS.twilio, NOW);
    expect(verifyWebhook({ dialect: "twilio", secret: SECRETS.twilio, headers: request.headers, body: request.body, now: NOW })).toEqual({
      ok: false,
      reason: "malformed",
    });
  });

  it("linear: a valid signature over a body without webhookTimestamp is malformed", () => {
    const request = signLikeProvider("linear", SECRETS.linear, NOW, '{"action":"create"}');
    expect(verify("linear", request)).toEqual({ ok: false, reason: "malformed" });
  });

  it("microsoft-graph: every notification in a batch must carry the clientState", () => {
    const body = Buffer.from(JSON.stringify({ value: [{ clientState: SECRETS["microsoft-graph"] }, { clientState: "guess" }] }));
    expect(verify("microsoft-graph", { headers: {}, body })).toEqual({ ok: false, reason: "bad_signature" });
    expect(verify("microsoft-graph", { headers: {}, body: Buffer.from("[]") })).toEqual({ ok: false, reason: "malformed" });
  });

  it("standard-webhooks: a secret that is not base64 is no usable secret", () => {
    const request = signLikeProvider("standard-webhooks", SECRETS["standard-webhooks"], NOW);
    expect(verify("standard-webhooks", request, "whsec_***")).toEqual({ ok: false, reason: "no_secret" });
  });

  it("a dialect outside the closed list is refused", () => {
    const request = signLikeProvider("github", SECRETS.github, NOW);
    expect(verifyWebhook({ dialect: "none" as WebhookDialect, secret: "x", headers: request.headers, body: request.body })).toEqual({
      ok: false,
      reason: "malformed",
    });
  });

  it("a body given as a string (re-serialised JSON) is refused as malformed", () => {
    const request = signLikeProvider("github", SECRETS.github, NOW);
    expect(
      verifyWebhook({ dialect: "github", secret: SECRETS.github, headers: request.headers, body: request.body.toString() as unknown as Uint8Array }),
    ).toEqual({ ok: false, reason: "malformed" });
  });
});

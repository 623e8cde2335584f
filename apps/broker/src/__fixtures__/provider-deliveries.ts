// Test-only: the providers' documented sample deliveries (kept in packages/events, each named with
// its page), signed here as each provider documents, with a test secret (providers publish none).
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";

export interface ProviderFixture {
  page: string;
  dialect: string;
  integration: string;
  headers: Record<string, string>;
  body: string;
  expect: { event: string; line?: string };
}

const folder = new URL("../../../../packages/events/src/__fixtures__/providers/", import.meta.url);

export function providerFixture(name: string): ProviderFixture {
  return JSON.parse(readFileSync(new URL(name, folder), "utf8")) as ProviderFixture;
}

const hex = (key: string, data: string) => createHmac("sha256", key).update(data).digest("hex");

/** GitHub: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256(body)>` (docs.github.com, validating webhook deliveries). */
export function signGitHub(secret: string, body: string): Record<string, string> {
  return { "X-Hub-Signature-256": `sha256=${hex(secret, body)}` };
}

/** Slack: `v0=<hex HMAC-SHA256("v0:" + timestamp + ":" + body)>` (api.slack.com, verifying requests). */
export function signSlack(secret: string, body: string, nowSeconds: number): Record<string, string> {
  return { "X-Slack-Request-Timestamp": String(nowSeconds), "X-Slack-Signature": `v0=${hex(secret, `v0:${nowSeconds}:${body}`)}` };
}

/** Stripe: `Stripe-Signature: t=<ts>,v1=<hex HMAC-SHA256(t + "." + body)>` (docs.stripe.com, verify manually). */
export function signStripe(secret: string, body: string, nowSeconds: number): Record<string, string> {
  return { "Stripe-Signature": `t=${nowSeconds},v1=${hex(secret, `${nowSeconds}.${body}`)}` };
}

/**
 * Twilio: `X-Twilio-Signature: <base64 HMAC-SHA1(url + each POST parameter's name and value,
 * sorted by name)>` (twilio.com/docs/usage/security#validating-requests).
 */
export function signTwilio(authToken: string, url: string, formBody: string): Record<string, string> {
  const params = [...new URLSearchParams(formBody)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const data = url + params.map(([name, value]) => name + value).join("");
  return { "X-Twilio-Signature": createHmac("sha1", authToken).update(data, "utf8").digest("base64") };
}

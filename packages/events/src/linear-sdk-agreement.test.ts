import { createHmac } from "node:crypto";
import { LinearWebhookClient } from "@linear/sdk/webhooks";
import { describe, expect, it } from "vitest";
import { verifyWebhook } from "./verify-webhook.js";

// Linear publishes no secret with a signature; its own SDK's verifier is the next best witness.
// Both judge the same deliveries, signed as Linear documents, at the SDK's clock (Date.now()).
const SECRET = "lin_wh_2e5b9c0f3a";

function delivery(webhookTimestampMs: number, secret = SECRET) {
  const body = Buffer.from(JSON.stringify({ action: "create", type: "Issue", data: { identifier: "ENG-1" }, webhookTimestamp: webhookTimestampMs }));
  return { body, signature: createHmac("sha256", secret).update(body).digest("hex") };
}

function sdkAccepts(body: Buffer, signature: string): boolean {
  try {
    return new LinearWebhookClient(SECRET).verify(body, signature);
  } catch {
    return false;
  }
}

function oursAccepts(body: Buffer, signature: string): boolean {
  return verifyWebhook({ dialect: "linear", secret: SECRET, headers: { "Linear-Signature": signature }, body, now: Date.now() / 1000 }).ok;
}

describe("linear: the same verdicts as Linear's own SDK (@linear/sdk/webhooks)", () => {
  const now = Date.now();
  const cases: [string, () => { body: Buffer; signature: string }, boolean][] = [
    ["a fresh delivery", () => delivery(now), true],
    ["signed with another secret", () => delivery(now, "another"), false],
    ["two minutes old", () => delivery(now - 120_000), false],
    ["two minutes in the future", () => delivery(now + 120_000), false],
    ["a body changed after signing", () => ({ ...delivery(now), body: Buffer.from(delivery(now).body.toString().replace("ENG-1", "ENG-2")) }), false],
    ["a truncated signature", () => ({ ...delivery(now), signature: delivery(now).signature.slice(0, 40) }), false],
  ];
  it.each(cases)("%s", (_name, make, accepted) => {
    const { body, signature } = make();
    expect(sdkAccepts(body, signature)).toBe(accepted);
    expect(oursAccepts(body, signature)).toBe(accepted);
  });
});

import { describe, expect, it } from "vitest";
import { signStandardWebhook, verifyStandardWebhook } from "./standard-webhook-signing.js";
import { verifyWebhook } from "./verify-webhook.js";

const bytes = (text: string) => Buffer.from(text, "utf8");

describe("each dialect against its provider's own published example", () => {
  it("github: the example of https://docs.github.com/en/webhooks/using-webhooks/validating-webhook-deliveries#testing-the-webhook-payload-validation", () => {
    const result = verifyWebhook({
      dialect: "github",
      secret: "It's a Secret to Everybody",
      headers: {
        "X-Hub-Signature-256": "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
        "X-GitHub-Delivery": "72d3162e-cc78-11e3-81ab-4c9367dc0958",
      },
      body: bytes("Hello, World!"),
    });
    expect(result).toEqual({ ok: true, delivery_id: "72d3162e-cc78-11e3-81ab-4c9367dc0958" });
    expect(
      verifyWebhook({
        dialect: "github",
        secret: "It's a Secret to Everybody",
        headers: { "X-Hub-Signature-256": "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17" },
        body: bytes("Hello, World?"),
      }),
    ).toEqual({ ok: false, reason: "bad_signature" });
  });

  it("slack: the worked example of https://api.slack.com/authentication/verifying-requests-from-slack", () => {
    const body = bytes(
      "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c",
    );
    const headers = { "X-Slack-Request-Timestamp": "1531420618", "X-Slack-Signature": "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503" };
    expect(verifyWebhook({ dialect: "slack", secret: "8f742231b10e8888abcd99yyyzzz85a5", headers, body, now: 1531420618 })).toEqual({
      ok: true,
      timestamp: 1531420618,
    });
    // The same example a little over five minutes later is a replay.
    expect(verifyWebhook({ dialect: "slack", secret: "8f742231b10e8888abcd99yyyzzz85a5", headers, body, now: 1531420618 + 301 })).toEqual({
      ok: false,
      reason: "stale",
    });
  });

  it("twilio: the example of https://www.twilio.com/docs/usage/security#validating-requests (auth token 12345)", () => {
    const body = bytes("CallSid=CA1234567890ABCDE&Caller=%2B12349013030&Digits=1234&From=%2B12349013030&To=%2B18005551212");
    const result = verifyWebhook({
      dialect: "twilio",
      secret: "12345",
      headers: { "X-Twilio-Signature": "0/KCTR6DLpKmkAf8muzZqo1nDgQ=" },
      body,
      url: "https://mycompany.com/myapp.php?foo=1&bar=2",
    });
    expect(result).toEqual({ ok: true });
    expect(
      verifyWebhook({
        dialect: "twilio",
        secret: "12345",
        headers: { "X-Twilio-Signature": "0/KCTR6DLpKmkAf8muzZqo1nDgQ=" },
        body,
        url: "https://mycompany.com/myapp.php?foo=1&bar=3",
      }),
    ).toEqual({
      ok: false,
      reason: "bad_signature",
    });
  });

  // The test vector of the reference libraries in github.com/standard-webhooks/standard-webhooks
  // (libraries/javascript/src/webhook.test.ts, "sign function works").
  const VECTOR = {
    secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
    id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
    timestamp: 1614265330,
    body: '{"test": 2432232314}',
    signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
  };

  it("standard-webhooks: signStandardWebhook reproduces the reference libraries' vector", () => {
    expect(signStandardWebhook({ secret: VECTOR.secret, id: VECTOR.id, timestamp: VECTOR.timestamp, body: VECTOR.body })).toEqual({
      "webhook-id": VECTOR.id,
      "webhook-timestamp": String(VECTOR.timestamp),
      "webhook-signature": VECTOR.signature,
    });
  });

  it("standard-webhooks: the vector verifies, with or without the whsec_ prefix, and among other signatures", () => {
    const headers = {
      "webhook-id": VECTOR.id,
      "webhook-timestamp": String(VECTOR.timestamp),
      "webhook-signature": `v1,Zm9vYmFyYmF6 ${VECTOR.signature} v1a,aGVsbG8=`,
    };
    for (const secret of [VECTOR.secret, VECTOR.secret.slice("whsec_".length)]) {
      expect(verifyStandardWebhook({ secret, headers, body: bytes(VECTOR.body), now: VECTOR.timestamp + 10 })).toEqual({
        ok: true,
        delivery_id: VECTOR.id,
        timestamp: VECTOR.timestamp,
      });
    }
    expect(verifyStandardWebhook({ secret: VECTOR.secret, headers, body: bytes(VECTOR.body), now: VECTOR.timestamp + 301 })).toEqual({
      ok: false,
      reason: "stale",
    });
  });
});

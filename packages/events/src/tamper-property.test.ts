import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SECRETS, signLikeProvider } from "./__fixtures__/sign-like-providers.js";
import { WEBHOOK_DIALECTS } from "./dialects/index.js";
import { verifyWebhook } from "./verify-webhook.js";

const NOW = 1_765_000_000;
// Graph signs no body; Twilio signs the decoded form values, so two encodings of one value (%41 and A) are the same request.
const BODY_SIGNING = WEBHOOK_DIALECTS.filter((dialect) => dialect !== "microsoft-graph" && dialect !== "twilio");

describe("any one changed byte of a signed body is refused", () => {
  it.each(BODY_SIGNING.map((dialect) => [dialect] as const))("%s", (dialect) => {
    const request = signLikeProvider(dialect, SECRETS[dialect], NOW);
    fc.assert(
      fc.property(fc.nat({ max: request.body.length - 1 }), fc.integer({ min: 1, max: 255 }), (index, flip) => {
        const body = Buffer.from(request.body);
        body[index] = (body[index] ?? 0) ^ flip;
        const result = verifyWebhook({ dialect, secret: SECRETS[dialect], headers: request.headers, body, now: NOW });
        expect(result).toEqual({ ok: false, reason: "bad_signature" });
      }),
      { numRuns: 100 },
    );
  });
});

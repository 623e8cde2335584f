import { describe, expect, it } from "vitest";
import { mapStatus, DEFAULT_RETRY_AFTER_S } from "./map-status.js";
import { parseResetAt, parseRetryAfter } from "./retry-after.js";

const context = { service: "Example", host: "api.example.com" };
const now = Date.parse("2024-06-01T12:00:00Z");

describe("mapStatus", () => {
  it.each([
    [401, "unauthorized", /Reconnect Example/],
    [403, "forbidden", /scope/],
    [404, "not_found", /Check the names and ids/],
    [301, "redirect_refused", /registry maintainers/],
    [302, "redirect_refused", /never followed/],
    [307, "redirect_refused", /never followed/],
    [400, "upstream_error", /Try again later/],
    [409, "upstream_error", /Try again later/],
    [422, "upstream_error", /Try again later/],
    [500, "upstream_error", /status page/],
    [503, "upstream_error", /status page/],
  ])("maps %i to %s with a next action", (status, code, nextAction) => {
    const error = mapStatus(status, {}, context, now);
    expect(error).toMatchObject({ code, http_status: status });
    expect(error.next_action).toMatch(nextAction);
    expect(error.message).toContain(String(status));
  });

  it("maps 429 to rate_limited with retry_after_s from Retry-After", () => {
    expect(mapStatus(429, { "retry-after": "30" }, context, now)).toMatchObject({ code: "rate_limited", http_status: 429, retry_after_s: 30 });
    expect(mapStatus(429, { "retry-after": "30" }, context, now).next_action).toMatch(/Wait 30 seconds/);
    expect(mapStatus(429, {}, context, now)).toMatchObject({ retry_after_s: DEFAULT_RETRY_AFTER_S });
  });

  it("maps GitHub's spent rate limit (403 with x-ratelimit-remaining: 0) to rate_limited", () => {
    const reset = String(now / 1000 + 120);
    expect(mapStatus(403, { "x-ratelimit-remaining": "0", "x-ratelimit-reset": reset }, context, now)).toMatchObject({
      code: "rate_limited",
      http_status: 403,
      retry_after_s: 120,
    });
  });
});

describe("Retry-After", () => {
  it("reads delta-seconds and HTTP dates, rounding up, never negative", () => {
    expect(parseRetryAfter("0", now)).toBe(0);
    expect(parseRetryAfter(" 12 ", now)).toBe(12);
    expect(parseRetryAfter("Sat, 01 Jun 2024 12:00:09 GMT", now)).toBe(9);
    expect(parseRetryAfter("Sat, 01 Jun 2024 11:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("99999999", now)).toBe(86_400);
  });

  it("ignores what it cannot read", () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter("-5", now)).toBeUndefined();
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseResetAt("later", now)).toBeUndefined();
  });
});

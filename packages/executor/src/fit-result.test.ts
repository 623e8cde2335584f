import { describe, expect, it } from "vitest";
import type { OkEnvelope } from "./envelope.js";
import { fitResult, serializeEnvelope } from "./fit-result.js";

const context = { service: "GitHub", host: "api.github.com" };
const ok = (data: unknown): OkEnvelope => ({ status: "ok", integration: "github", op: "repos.list", http_status: 200, data });

describe("fitResult and serializeEnvelope", () => {
  it("keeps an envelope that fits, and hands out the very text it measured", () => {
    const envelope = ok([{ full_name: "a/b" }]);
    const fitted = fitResult(envelope, 1000, context);
    expect(fitted).toBe(envelope);
    expect(serializeEnvelope(fitted)).toBe(JSON.stringify(envelope));
  });

  it("refuses an envelope over the limit as result_too_large, never a cut string", () => {
    const fitted = fitResult(ok("x".repeat(2000)), 1000, context);
    expect(fitted).toMatchObject({ status: "error", error: { code: "result_too_large", http_status: 200 } });
    expect(JSON.parse(serializeEnvelope(fitted))).toEqual(fitted);
  });

  it("serialises an envelope it never measured", () => {
    const envelope = ok({ n: 1 });
    expect(serializeEnvelope(envelope)).toBe('{"status":"ok","integration":"github","op":"repos.list","http_status":200,"data":{"n":1}}');
  });
});

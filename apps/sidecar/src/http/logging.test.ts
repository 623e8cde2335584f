import { describe, expect, it } from "vitest";
import { pathOnly, sidecarLoggerOptions, sidecarSerializers } from "./logging.js";
import { captureLogs } from "../__fixtures__/log-capture.js";

describe("the sidecar's log serializers", () => {
  it("log a request's method, path and address, never its headers or query", () => {
    const request = { method: "POST", url: "/v1/run?token=abc", ip: "127.0.0.1", headers: { authorization: "Bearer secret" }, body: { grant: "eg1.x" } };
    const serialized = sidecarSerializers.req?.(request as never);
    expect(serialized).toEqual({ method: "POST", url: "/v1/run?…", remoteAddress: "127.0.0.1" });
  });

  it("log an error's type, code and frames, never its message", () => {
    const error = Object.assign(new SyntaxError('Unexpected token in JSON: "the-body-value"'), { code: "E_X", statusCode: 400 });
    const serialized = sidecarSerializers.err?.(error as never) as Record<string, unknown>;
    expect(serialized).toMatchObject({ type: "SyntaxError", code: "E_X", statusCode: 400 });
    expect(JSON.stringify(serialized)).not.toContain("the-body-value");
  });

  it("drop a query for logging", () => {
    expect(pathOnly("/v1/identity")).toBe("/v1/identity");
    expect(pathOnly("/v1/run?a=b")).toBe("/v1/run?…");
  });
});

describe("sidecarLoggerOptions", () => {
  it("is false when no logger is asked for", () => {
    expect(sidecarLoggerOptions(undefined, ["x"])).toBe(false);
    expect(sidecarLoggerOptions(false, ["x"])).toBe(false);
  });

  it("forces the sidecar's serializers over the caller's and scrubs the secrets from every line", () => {
    const logs = captureLogs();
    const options = sidecarLoggerOptions({ level: "info", stream: logs.stream, serializers: { req: () => ({ everything: true }) } }, ["the-caller-token"]);
    if (typeof options !== "object") throw new Error("expected logger options");
    expect(options.serializers?.req).toBe(sidecarSerializers.req);
    options.stream?.write('{"msg":"oops the-caller-token leaked"}\n');
    expect(logs.lines).toEqual(['{"msg":"oops [redacted] leaked"}\n']);
  });
});

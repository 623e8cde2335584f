import { describe, expect, it } from "vitest";
import { testApp } from "../__fixtures__/test-app.js";
import { CLIENT_SECRET } from "../__fixtures__/test-registry.js";
import { brokerLoggerOptions, createScrubber, pathOnly, serializeRequest } from "./logging.js";

describe("request serializer", () => {
  it("logs method, path and address, never the query", () => {
    expect(serializeRequest({ method: "GET", url: "/connect/callback?code=abc&state=def", ip: "127.0.0.1" })).toEqual({
      method: "GET",
      url: "/connect/callback?…",
      remoteAddress: "127.0.0.1",
    });
    expect(pathOnly("/registry")).toBe("/registry");
    expect(pathOnly("/connect/x/start?client_key=k&return_to=r")).toBe("/connect/x/start?…");
  });
});

describe("scrubbing", () => {
  it("replaces every configured secret, raw or JSON-escaped, and leaves short values alone", () => {
    const scrub = createScrubber(["s3cret-value-1", 'quote"secret\\x', "short"]);
    expect(scrub('{"msg":"got s3cret-value-1 twice s3cret-value-1"}')).toBe('{"msg":"got [redacted] twice [redacted]"}');
    expect(scrub(JSON.stringify({ msg: 'quote"secret\\x' }))).toBe('{"msg":"[redacted]"}');
    expect(scrub("a short word")).toBe("a short word");
  });

  it("turns the logger off for false and undefined, and keeps the caller's level", () => {
    expect(brokerLoggerOptions(undefined, [])).toBe(false);
    expect(brokerLoggerOptions(false, [])).toBe(false);
    expect(brokerLoggerOptions({ level: "warn" }, [])).toMatchObject({ level: "warn" });
    const transport = brokerLoggerOptions({ transport: { target: "pino/file" } }, ["a-secret-value"]);
    expect(transport).toMatchObject({ transport: { target: "pino/file" } });
    expect(transport).not.toHaveProperty("stream");
  });

  it("keeps the client secret and state key out of lines the app writes, whatever writes them", async () => {
    const { app, logs, config } = testApp();
    await app.ready();
    app.log.info(`a careless message with ${CLIENT_SECRET} and ${config.stateKey}`);
    app.log.info({ nested: { secret: CLIENT_SECRET } }, "careless object");
    const text = logs.join("");
    expect(text).toContain("a careless message with [redacted] and [redacted]");
    expect(text).toContain('"nested":{"secret":"[redacted]"}');
    expect(text).not.toContain(CLIENT_SECRET);
    expect(text).not.toContain(config.stateKey);
    await app.close();
  });

  it("never logs headers or bodies of a request", async () => {
    const { app, logs } = testApp();
    await app.inject({
      method: "POST",
      url: "/connect/testauth/refresh?x=query-value",
      headers: { "content-type": "application/json", authorization: "Bearer header-token-value", cookie: "session=cookie-value" },
      payload: JSON.stringify({ refresh_token: "body-refresh-token", client_key: "bad" }),
    });
    const text = logs.join("");
    expect(text).toContain("incoming request");
    for (const value of ["query-value", "header-token-value", "cookie-value", "body-refresh-token"]) expect(text).not.toContain(value);
    await app.close();
  });
});

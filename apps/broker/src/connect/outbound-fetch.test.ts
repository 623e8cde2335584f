import { MockAgent } from "undici";
import { describe, expect, it } from "vitest";
import { createOutboundFetch } from "./outbound-fetch.js";

function agentAnswering(status: number, body: string, headers: Record<string, string | string[]> = {}) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  agent.get("https://token.example.com").intercept({ path: "/token", method: "POST" }).reply(status, body, { headers });
  return agent;
}

const init = {
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams({ a: "1" }),
  redirect: "manual" as const,
};

describe("createOutboundFetch", () => {
  it("returns a Response with the status, headers and body read through the dispatcher", async () => {
    const fetch = createOutboundFetch({
      dispatcher: agentAnswering(200, '{"ok":true}', { "content-type": "application/json", "set-cookie": ["a=1", "b=2"] }),
      timeoutMs: 1000,
    });
    const response = await fetch("https://token.example.com/token", init);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    expect(await response.json()).toEqual({ ok: true });
  });

  it("hands a redirect back unfollowed", async () => {
    const fetch = createOutboundFetch({ dispatcher: agentAnswering(302, "", { location: "https://elsewhere.example.com/" }), timeoutMs: 1000 });
    const response = await fetch("https://token.example.com/token", init);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("https://elsewhere.example.com/");
  });

  it("refuses a body over the cap instead of buffering it", async () => {
    const fetch = createOutboundFetch({ dispatcher: agentAnswering(200, "x".repeat(2048)), timeoutMs: 1000, maxResponseBytes: 1024 });
    await expect(fetch("https://token.example.com/token", init)).rejects.toThrow("larger than 1024 bytes");
  });

  it("gives up after the timeout", async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent.get("https://token.example.com").intercept({ path: "/token", method: "POST" }).reply(200, "{}").delay(1000);
    const fetch = createOutboundFetch({ dispatcher: agent, timeoutMs: 50 });
    const started = Date.now();
    await expect(fetch("https://token.example.com/token", init)).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(900);
  });
});

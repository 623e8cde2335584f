import { MockAgent } from "undici";
import { AUTH_ORIGIN } from "./test-registry.js";

export interface CapturedRequest {
  headers: Record<string, string>;
  body: URLSearchParams;
}

/** One scripted answer of the token endpoint. */
export interface TokenAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
}

/**
 * A MockAgent standing in for the test manifest's token endpoint (a generic
 * provider, not a real one: its scripted answers take the shapes of RFC 6749
 * §5.1 and §5.2, https://www.rfc-editor.org/rfc/rfc6749#section-5; each shipped
 * provider's own quirks are in provider-docs.ts with its documentation): net connect
 * disabled (nothing unscripted can leave), every request captured.
 */
export function mockTokenEndpoint() {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const requests: CapturedRequest[] = [];
  const answer = (reply: TokenAnswer) => {
    const scope = agent
      .get(AUTH_ORIGIN)
      .intercept({ path: "/token", method: "POST" })
      .reply((options) => {
        const headers: Record<string, string> = {};
        new Headers(options.headers as ConstructorParameters<typeof Headers>[0]).forEach((value, name) => {
          headers[name] = value;
        });
        requests.push({ headers, body: new URLSearchParams(String(options.body)) });
        return {
          statusCode: reply.status,
          data: typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body),
          responseOptions: { headers: { "content-type": "application/json", ...reply.headers } },
        };
      });
    if (reply.delayMs !== undefined) scope.delay(reply.delayMs);
  };
  return { agent, requests, answer };
}

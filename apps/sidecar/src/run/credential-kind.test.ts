import { MockAgent } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { grantFor, MEMBER_TOKEN } from "../__fixtures__/grant-kit.js";
import { authorized, testApp, type TestApp } from "../__fixtures__/test-app.js";

let test: TestApp | undefined;
afterEach(async () => {
  await test?.app.close();
});

/** Runs Linear's teams.list with a grant whose credential is of `kind`; the Authorization header Linear received. */
async function linearAuthorization(kind: "pat" | "oauth"): Promise<string | undefined> {
  const agent = new MockAgent();
  agent.disableNetConnect();
  let received: string | undefined;
  agent
    .get("https://api.linear.app")
    .intercept({ path: "/graphql", method: "POST" })
    .reply((options) => {
      received = new Headers(options.headers as ConstructorParameters<typeof Headers>[0]).get("authorization") ?? undefined;
      return {
        statusCode: 200,
        data: JSON.stringify({ data: { teams: { nodes: [], pageInfo: { hasNextPage: false, endCursor: null } } } }),
        responseOptions: { headers: { "content-type": "application/json" } },
      };
    });
  test = await testApp({ dispatcher: agent });
  const response = await test.app.inject({
    method: "POST",
    url: "/v1/run",
    headers: authorized,
    payload: { grant: grantFor({ integration: "linear", kind }), op: "teams.list" },
  });
  expect(response.statusCode).toBe(200);
  await test.app.close();
  test = undefined;
  return received;
}

describe("the grant's credential kind picks the Authorization scheme", () => {
  it("Linear: a token from the OAuth flow goes as Bearer, a personal API key bare", async () => {
    expect(await linearAuthorization("oauth")).toBe(`Bearer ${MEMBER_TOKEN}`);
    expect(await linearAuthorization("pat")).toBe(MEMBER_TOKEN);
  });
});

import { afterEach, describe, expect, it } from "vitest";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../app.js";
import { testApp } from "../__fixtures__/test-app.js";
import { loadRegistry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";
import { PUBLIC_URL, randomKey } from "../__fixtures__/test-registry.js";

let app: FastifyInstance;
afterEach(async () => {
  await app.close();
});

async function search(query: string) {
  return app.inject({ method: "GET", url: `/registry/search${query}` });
}

describe("GET /registry/search", () => {
  it("ranks integrations and ops, typo tolerant, each OAuth one with its availability", async () => {
    app = testApp().app;
    const response = await search("?q=creat%20nte");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(response.headers["access-control-allow-origin"]).toBe("*");
    const body = response.json();
    expect(body.schema).toBe(1);
    expect(body.query).toEqual({ q: "creat nte", category: null, access: null });
    expect(body.results[0]).toMatchObject({
      kind: "op",
      integration: "testauth",
      op: "notes.create",
      label: "Create a note",
      access: "write",
      auth: "both",
      oauth_available: true,
    });
    const noapp = (await app.inject({ method: "GET", url: "/registry/search?q=items&category=productivity" })).json();
    expect(noapp.results.map((hit: { integration: string }) => hit.integration)).toEqual(["noapp", "noapp"]);
    expect(noapp.results.every((hit: { oauth_available?: boolean }) => hit.oauth_available === false)).toBe(true);
    const pat = (await app.inject({ method: "GET", url: "/registry/search?q=repositories" })).json();
    expect(pat.results[0]).toMatchObject({ integration: "patonly", op: "repos.list" });
    expect(pat.results[0]).not.toHaveProperty("oauth_available");
  });

  it("filters by category and access", async () => {
    app = testApp().app;
    const reads = (await search("?q=&access=read&limit=100")).json();
    expect(reads.results.filter((hit: { kind: string }) => hit.kind === "op").every((hit: { access: string }) => hit.access === "read")).toBe(true);
    expect(reads.results.some((hit: { op?: string }) => hit.op === "me.get")).toBe(true);
    const development = (await app.inject({ method: "GET", url: "/registry/search?category=development" })).json();
    expect(development.results.map((hit: { integration: string }) => hit.integration)).toEqual(["patonly", "patonly"]);
  });

  it("refuses a malformed query with invalid_query naming the parameter", async () => {
    app = testApp().app;
    for (const [query, words] of [
      ["?access=admin", '"access" must be read or write'],
      ["?q=a&q=b", '"q" is given more than once'],
      ["?limit=0", '"limit" must be a whole number'],
      ["?limit=abc", '"limit" must be a whole number'],
      ["?sort=score", 'unknown parameter "sort"'],
      [`?q=${"x".repeat(201)}`, '"q" is longer than 200 characters'],
    ] as const) {
      const response = await app.inject({ method: "GET", url: `/registry/search${query}` });
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error.code).toBe("invalid_query");
      expect(response.json().error.message).toContain(words);
    }
  });

  it("over the shipped manifests: GitHub's OAuth availability rides on every GitHub hit", async () => {
    app = buildApp({
      registry: loadRegistry(manifestFiles),
      publicUrl: PUBLIC_URL,
      stateKey: randomKey(),
      oauthApps: { github: { clientId: "Iv1.test", clientSecret: "shipped-search-secret" } },
      allowedReturnTo: [],
      logger: false,
    });
    const body = (await app.inject({ method: "GET", url: "/registry/search?q=close%20github%20issue" })).json();
    expect(body.results[0]).toMatchObject({ integration: "github", op: "issues.close", destructive: true, oauth_available: true });
    const slack = (await app.inject({ method: "GET", url: "/registry/search?q=slack" })).json();
    expect(slack.results[0]).toMatchObject({ kind: "integration", integration: "slack", oauth_available: false });
    // Gandi connects with a personal token only: no OAuth availability to report.
    const stripe = (await app.inject({ method: "GET", url: "/registry/search?q=gandi" })).json();
    expect(stripe.results[0]).toMatchObject({ integration: "gandi" });
    expect(stripe.results[0]).not.toHaveProperty("oauth_available");
    expect(JSON.stringify([body, slack, stripe])).not.toContain("shipped-search-secret");
  });
});

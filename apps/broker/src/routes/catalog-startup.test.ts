import { afterEach, describe, expect, it, vi } from "vitest";
import type { FastifyInstance } from "fastify";
import { testApp } from "../__fixtures__/test-app.js";

const rendered = vi.hoisted(() => ({ pages: [] as string[], indexes: 0 }));

vi.mock("../catalog/catalog-page.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../catalog/catalog-page.js")>();
  return {
    ...original,
    renderIntegrationPage: (entry: Parameters<typeof original.renderIntegrationPage>[0]) => {
      rendered.pages.push(entry.id);
      return original.renderIntegrationPage(entry);
    },
  };
});

vi.mock("@eleven-integrations/search", async (importOriginal) => {
  const original = await importOriginal<typeof import("@eleven-integrations/search")>();
  return {
    ...original,
    createSearchIndex: (...args: Parameters<typeof original.createSearchIndex>) => {
      const index = original.createSearchIndex(...args);
      return {
        categories: () => index.categories(),
        search: (...query: Parameters<typeof index.search>) => index.search(...query),
        get size() {
          return index.size;
        },
        build: () => {
          rendered.indexes += 1;
          index.build();
        },
      };
    },
  };
});

let app: FastifyInstance;
afterEach(async () => {
  await app.close();
  rendered.pages.length = 0;
  rendered.indexes = 0;
});

describe("what the broker makes when it starts, and what on first demand", () => {
  it("builds the search index before it is ready", async () => {
    app = testApp().app;
    expect(rendered.indexes).toBe(0);
    await app.ready();
    expect(rendered.indexes).toBe(1);
    const response = await app.inject({ method: "GET", url: "/registry/search?q=nasty" });
    expect(response.statusCode).toBe(200);
    expect(rendered.indexes).toBe(1);
  });

  it("renders an integration's page when it is first asked for, once", async () => {
    app = testApp().app;
    await app.ready();
    expect(rendered.pages).toEqual([]);
    const first = await app.inject({ method: "GET", url: "/integrations/patonly" });
    const second = await app.inject({ method: "GET", url: "/integrations/patonly" });
    expect(first.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    expect(rendered.pages).toEqual(["patonly"]);
    expect((await app.inject({ method: "GET", url: "/integrations/nothing" })).statusCode).toBe(404);
    expect(rendered.pages).toEqual(["patonly"]);
  });
});

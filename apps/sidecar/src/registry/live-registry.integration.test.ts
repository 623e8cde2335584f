import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { LiveRegistry } from "./live-registry.js";
import { registry } from "../__fixtures__/grant-kit.js";
import { startProviderStandIn, type ProviderStandIn } from "../__fixtures__/provider-stand-in.js";

let provider: ProviderStandIn;
beforeAll(async () => {
  provider = await startProviderStandIn();
});
afterAll(() => provider.close());

const info = { hash: registry.hash, sequence: 0, source: "embedded" as const, synced_at: null };
const list = { integration: "github", op: "issues.list", args: { owner: "octocat", repo: "hello-world" }, credential: { token: "t" } };

it("shares one page key across releases: a next_page from before a swap opens after it, another key's does not", async () => {
  const live = new LiveRegistry(registry, info, { dispatcher: provider.dispatcher, pageKey: randomBytes(32) });
  const first = await live.current().executor.run(list);
  const page = first.status === "ok" ? first.next_page : undefined;
  expect(page).toEqual(expect.any(String));

  live.swap(registry, { ...info, sequence: 1 });
  expect(await live.current().executor.run({ ...list, page })).toMatchObject({ status: "ok", data: [{ title: "Fourth" }] });
  expect(provider.requests.at(-1)?.url).toBe("/repos/octocat/hello-world/issues?per_page=20&page=2");

  const sent = provider.requests.length;
  const other = new LiveRegistry(registry, info, { dispatcher: provider.dispatcher, pageKey: randomBytes(32) });
  expect(await other.current().executor.run({ ...list, page })).toMatchObject({ status: "error", error: { code: "invalid_args" } });
  expect(provider.requests).toHaveLength(sent);
});

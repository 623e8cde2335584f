import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RecordedRequest } from "./test-support/test-server.js";
import { startThirdReleaseHarness, type ThirdReleaseHarness } from "./test-support/third-release-harness.js";
import { FEATURES_HOST } from "./test-support/third-release-registry.js";

let harness: ThirdReleaseHarness;
/** What the records query answers as its next path, per test. */
let nextRecordsUrl: unknown;
/** What the Graph-style list answers under "@odata.nextLink", per test. */
let odataNextLink: unknown;
/** The Graph-style list's whole first answer, when a test replaces it. */
let graphFirstPage: unknown;
const GRAPH_CONTEXT = "https://graph.microsoft.com/v1.0/$metadata#users('48d31887-5fad-4d73-a9f5-3c356e68a038')/messages(id,subject)";
const GRAPH_SECOND_PAGE = "/v1/me/messages?$select=id,subject&$top=2&$skiptoken=X%274453707402000100000017%27";

// Dropbox's documented answers (https://www.dropbox.com/developers/documentation/http/documentation#files-list_folder
// and #files-list_folder-continue): entries, a cursor, has_more; the continuation takes { "cursor" }.
// Salesforce's (https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/dome_query.htm):
// records, done, and nextRecordsUrl, a path under /services/data/..., while there are more.
function answer(request: RecordedRequest) {
  if (request.url === "/v1/files/list_folder")
    return { entries: [{ ".tag": "file", name: "Prime_Numbers.txt" }], cursor: "ZtkX9_EHj3x7PMkVuFIhwKYXEpwpLwyxp9vMKomUhllil9q7eWiAu", has_more: true };
  if (request.url === "/v1/files/list_folder/continue") {
    const { cursor } = JSON.parse(request.body) as { cursor: string };
    return cursor === "ZtkX9_EHj3x7PMkVuFIhwKYXEpwpLwyxp9vMKomUhllil9q7eWiAu"
      ? { entries: [{ ".tag": "folder", name: "math" }], cursor: "second-cursor", has_more: true }
      : { entries: [{ ".tag": "file", name: "last.txt" }], cursor: "done-cursor", has_more: false };
  }
  if (request.url.startsWith("/v1/query?")) return { totalSize: 3, done: false, nextRecordsUrl, records: [{ Id: "001D000000IqhSLIAZ" }] };
  if (request.url === "/v1/query/01gD0000002HU6KIAW-2000") return { totalSize: 3, done: true, records: [{ Id: "001D000000IomazIAB" }] };
  // Microsoft Graph's (https://learn.microsoft.com/en-us/graph/paging): the next page's absolute URL under
  // "@odata.nextLink", its $skiptoken percent-encoded as Graph writes it, absent on the last page.
  if (request.url === "/v1/me/messages?$select=id,subject&$top=2")
    return (
      graphFirstPage ?? { "@odata.context": GRAPH_CONTEXT, "@odata.nextLink": odataNextLink, value: [{ id: "AAMkAGI2TG93AAA=", subject: "Quarterly report" }] }
    );
  if (request.url === GRAPH_SECOND_PAGE) return { "@odata.context": GRAPH_CONTEXT, value: [{ id: "AAMkAGI2TG94AAA=", subject: "Re: budget" }] };
  return { unexpected: request.url };
}

beforeAll(async () => {
  harness = await startThirdReleaseHarness((request, reply) => reply.send(answer(request)));
});
afterAll(() => harness.close());
beforeEach(() => {
  harness.reset();
  nextRecordsUrl = "/v1/query/01gD0000002HU6KIAW-2000";
  odataNextLink = `https://${FEATURES_HOST}${GRAPH_SECOND_PAGE}`;
  graphFirstPage = undefined;
});

const credential = { token: "tok_pages" };
const listFiles = { integration: "features", op: "files.list", args: { path: "/Homework/math" }, credential };

describe("page.next_op: a list that continues through another op", () => {
  it("runs the continuation op with the cursor for each next page, answering as the op asked for", async () => {
    const first = await harness.executor.run(listFiles);
    expect(first).toMatchObject({ status: "ok", op: "files.list", data: [{ name: "Prime_Numbers.txt" }], next_page: expect.any(String) });
    if (first.status !== "ok" || first.next_page === undefined) throw new Error("no next page");
    const second = await harness.executor.run({ ...listFiles, page: first.next_page });
    expect(second).toMatchObject({ status: "ok", op: "files.list", data: [{ name: "math" }], next_page: expect.any(String) });
    expect(harness.server.requests[1]).toMatchObject({ method: "POST", url: "/v1/files/list_folder/continue" });
    expect(JSON.parse(harness.server.requests[1]?.body ?? "")).toEqual({ cursor: "ZtkX9_EHj3x7PMkVuFIhwKYXEpwpLwyxp9vMKomUhllil9q7eWiAu" });
    if (second.status !== "ok" || second.next_page === undefined) throw new Error("no third page");
    const third = await harness.executor.run({ ...listFiles, page: second.next_page });
    expect(JSON.parse(harness.server.requests[2]?.body ?? "")).toEqual({ cursor: "second-cursor" });
    expect(third).toMatchObject({ status: "ok", data: [{ name: "last.txt" }] });
    expect(third).not.toHaveProperty("next_page");
  });

  it("refuses its page token replayed on the continuation op itself, or with other args: invalid_args, nothing sent", async () => {
    const first = await harness.executor.run(listFiles);
    if (first.status !== "ok" || first.next_page === undefined) throw new Error("no next page");
    harness.reset();
    const onContinue = await harness.executor.run({
      integration: "features",
      op: "files.list_continue",
      args: { cursor: "x" },
      credential,
      page: first.next_page,
    });
    expect(onContinue).toMatchObject({ status: "error", error: { code: "invalid_args" } });
    const otherArgs = await harness.executor.run({ ...listFiles, args: { path: "/Other" }, page: first.next_page });
    expect(otherArgs).toMatchObject({ status: "error", error: { code: "invalid_args" } });
    expect(harness.sent()).toBe(0);
  });

  it("the continuation op still runs on its own, paging by its own cursor arg", async () => {
    const envelope = await harness.executor.run({
      integration: "features",
      op: "files.list_continue",
      args: { cursor: "ZtkX9_EHj3x7PMkVuFIhwKYXEpwpLwyxp9vMKomUhllil9q7eWiAu" },
      credential,
    });
    expect(envelope).toMatchObject({ status: "ok", op: "files.list_continue", next_page: expect.any(String) });
  });
});

describe('page.from "next_path": the provider names the next page\'s path', () => {
  const query = { integration: "features", op: "records.query", args: { q: "SELECT Id FROM Account" }, credential };

  it("fetches the next path as given, under the base, on the base's origin", async () => {
    const first = await harness.executor.run(query);
    expect(first).toMatchObject({ status: "ok", data: [{ Id: "001D000000IqhSLIAZ" }], next_page: expect.any(String) });
    if (first.status !== "ok" || first.next_page === undefined) throw new Error("no next page");
    const second = await harness.executor.run({ ...query, page: first.next_page });
    expect(second).toMatchObject({ status: "ok", data: [{ Id: "001D000000IomazIAB" }] });
    expect(second).not.toHaveProperty("next_page");
    expect(harness.server.requests[1]).toMatchObject({ method: "GET", url: "/v1/query/01gD0000002HU6KIAW-2000", headers: { host: FEATURES_HOST } });
  });

  it("takes an absolute URL on the base's own origin", async () => {
    nextRecordsUrl = `https://${FEATURES_HOST}/v1/query/01gD0000002HU6KIAW-2000`;
    const first = await harness.executor.run(query);
    if (first.status !== "ok" || first.next_page === undefined) throw new Error("no next page");
    await harness.executor.run({ ...query, page: first.next_page });
    expect(harness.server.requests[1]?.url).toBe("/v1/query/01gD0000002HU6KIAW-2000");
  });

  it.each([
    ["another origin", "https://evil.example/v1/query/x"],
    ["a scheme-relative URL", "//evil.example/v1/query/x"],
    ["user info on the origin", `https://user@${FEATURES_HOST}/v1/query/x`],
    ["http on the same host", `http://${FEATURES_HOST}/v1/query/x`],
    ["a path outside the base", "/v2/query/x"],
    ["a path that only starts like the base", "/v1x/query"],
    ["a dot-dot segment", "/v1/../admin"],
    ["an encoded dot-dot segment", "/v1/%2e%2e/admin"],
    ["a double-encoded dot-dot segment", "/v1/%252e%252e/admin"],
    ["an encoded slash", "/v1/query%2f..%2f..%2fadmin"],
    ["a backslash", "/v1\\..\\admin"],
    ["a fragment", "/v1/query/x#y"],
    ["a space", "/v1/query/a b"],
    ["a control character", "/v1/query/a\r\nHost: evil.example"],
    ["an empty segment", "/v1//query"],
    ["a relative path", "v1/query/x"],
    ["a path over 8 KiB", `/v1/query/${"a".repeat(9000)}`],
    ["a number", 42],
  ])("refuses a next path that is %s: bad_response, no next page, nothing more sent", async (_name, value) => {
    nextRecordsUrl = value;
    const envelope = await harness.executor.run(query);
    expect(envelope).toMatchObject({ status: "error", error: { code: "bad_response" } });
    expect(envelope).not.toHaveProperty("next_page");
    expect(harness.server.requests).toHaveLength(1);
    expect(harness.evil.requests).toHaveLength(0);
  });

  it("a page token of another op is refused, nothing sent", async () => {
    const files = await harness.executor.run(listFiles);
    if (files.status !== "ok" || files.next_page === undefined) throw new Error("no next page");
    harness.reset();
    expect(await harness.executor.run({ ...query, page: files.next_page })).toMatchObject({ error: { code: "invalid_args" } });
    expect(harness.sent()).toBe(0);
  });
});

describe('page.from "next_path" with top_key: a next link under a key no dot-path can name (Microsoft Graph)', () => {
  const messages = { integration: "features", op: "messages.list", args: {}, credential };

  it('follows "@odata.nextLink", the absolute URL as Graph wrote it, until a page has none', async () => {
    const first = await harness.executor.run(messages);
    expect(first).toMatchObject({ status: "ok", data: [{ id: "AAMkAGI2TG93AAA=", subject: "Quarterly report" }], next_page: expect.any(String) });
    if (first.status !== "ok" || first.next_page === undefined) throw new Error("no next page");
    const second = await harness.executor.run({ ...messages, page: first.next_page });
    expect(second).toMatchObject({ status: "ok", data: [{ id: "AAMkAGI2TG94AAA=", subject: "Re: budget" }] });
    expect(second).not.toHaveProperty("next_page");
    expect(harness.server.requests[1]).toMatchObject({ method: "GET", url: GRAPH_SECOND_PAGE, headers: { host: FEATURES_HOST } });
  });

  it("reads the key as written, not as a dot-path: a nested @odata.nextLink is no next page", async () => {
    graphFirstPage = { "@odata": { nextLink: `https://${FEATURES_HOST}${GRAPH_SECOND_PAGE}` }, value: [{ id: "x", subject: "y" }] };
    const envelope = await harness.executor.run(messages);
    expect(envelope).toMatchObject({ status: "ok", data: [{ id: "x", subject: "y" }] });
    expect(envelope).not.toHaveProperty("next_page");
  });

  it.each([
    ["another origin", "https://graph.microsoft.com/v1.0/me/messages?$skiptoken=abc"],
    ["a path outside the base", `https://${FEATURES_HOST}/beta/me/messages?$skiptoken=abc`],
    ["a quote Graph did not encode", `https://${FEATURES_HOST}/v1/me/messages?$skiptoken=X'44'`],
  ])("refuses a next link that is %s: bad_response, nothing more sent", async (_name, value) => {
    odataNextLink = value;
    const envelope = await harness.executor.run(messages);
    expect(envelope).toMatchObject({ status: "error", error: { code: "bad_response" } });
    expect(harness.server.requests).toHaveLength(1);
    expect(harness.evil.requests).toHaveLength(0);
  });
});

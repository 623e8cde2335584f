// Every shipped integration against its provider's documented examples
// (__fixtures__/provider-truth/<id>.json): a success, a failure in the provider's own
// dialect, and a page with more, followed to the next request.
import { readFileSync } from "node:fs";
import { loadRegistry, type Registry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";
import { createLoopbackDispatcher, createTestCertificates } from "@eleven-integrations/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, type Executor } from "./create-executor.js";
import type { Envelope, OkEnvelope } from "./envelope.js";
import { startTestServer, type TestServer } from "./test-support/test-server.js";

interface Example {
  readonly source: string;
  readonly op: string;
  readonly args: Record<string, string>;
  /** The connection's tenant settings, for a manifest whose base names one (`{ region: "us" }`). */
  readonly connection?: Record<string, string>;
  readonly response: { readonly status: number; readonly headers: Record<string, string>; readonly body: unknown };
  readonly expect?: {
    readonly status: "ok" | "error";
    readonly next_page?: boolean;
    readonly code?: string;
    readonly http_status?: number;
    readonly provider?: object;
  };
  readonly next_request?: { readonly path: string; readonly body_variables?: Record<string, string>; readonly body?: unknown };
}

const registry: Registry = loadRegistry(manifestFiles);
const manifests = registry.integrations();
const read = (file: string): unknown => JSON.parse(readFileSync(new URL(file, import.meta.url), "utf8"));
const examples = new Map(
  manifests.map((manifest) => [manifest.id, read(`./__fixtures__/provider-truth/${manifest.id}.json`) as Record<string, Example | string>]),
);
/** The host a request reaches: the base's, a tenant placeholder filled from the connection. */
const hostOf = (base: string, connection: Record<string, string> = {}): string =>
  new URL(base.replace(/\{([a-z][a-z0-9_]*)\}/g, (_, name: string) => connection[name] ?? name)).hostname;
const hosts = [
  ...new Set(
    manifests.flatMap((manifest) =>
      Object.values(examples.get(manifest.id) ?? {}).flatMap((example) =>
        typeof example === "object" ? [hostOf(manifest.auth.base, example.connection)] : [],
      ),
    ),
  ),
];
/** Reads that return one answer, not a list, though their pick has an array root (Gandi's availability check, one Gmail thread's messages, SendGrid's bounce entries for one address). */
const NOT_LISTS = new Set(["gandi domains.check", "gmail threads.get", "sendgrid bounces.get"]);
/**
 * Lists the provider answers whole: its API documents no paging for them, so there is no
 * cursor to declare (Trello returns a member's boards, a board's lists and cards, and a
 * search's cards, up to `cards_limit`, in one answer; Gmail every label; Figma a team's projects, a project's files and a file's comments; Graph a OneDrive item's permissions, your joined teams and a team's channels). An integration all of whose lists are
 * whole has no `page` example.
 */
const WHOLE_LISTS = new Set([
  "trello boards.list",
  "trello lists.list",
  "trello cards.list",
  "trello cards.search",
  "clickup teams.list",
  "clickup spaces.list",
  "clickup folders.list",
  "jira issues.transitions",
  "gmail labels.list",
  "figma projects.list",
  "figma projects.files",
  "figma comments.list",
  "discord channels.list",
  "discord scheduled_events.list",
  "sendgrid contacts.search",
  "microsoft-onedrive permissions.list",
  "microsoft-teams teams.joined",
  "microsoft-teams channels.list",
  "salesforce records.search",
]);
/**
 * Lists a provider pages by page number or item offset alone and that no `offset` or `page`
 * declaration can follow yet: Jira's user search answers a bare array with no total or last flag,
 * and Microsoft Search nests its hits and `moreResultsAvailable` in arrays a dot-path cannot
 * index. The op takes the offset as an ordinary arg and says how to reach the next page.
 * (ClickUp, Cloudflare, PagerDuty, Confluence, Mailchimp, Box and Jira's project search page by
 * `offset` or `page` declarations: offset-page-lists.integration.test.ts.)
 */
const PAGE_NUMBER_LISTS = new Set(["jira users.find", "microsoft-onedrive files.search"]);
/**
 * Lists a provider pages by the id of the last item the bot got, passed back as an arg,
 * without ever saying whether more exist (Discord's `after=` servers and `before=`
 * messages): no paging style can tell the last page, so the op takes the id as an ordinary
 * arg whose description says to pass the last id of the previous answer.
 */
const LAST_ID_LISTS = new Set(["discord guilds.list", "discord messages.list"]);

let server: TestServer;
let executor: Executor;
let current: Example["response"] | undefined;
let closeDispatcher: () => Promise<void>;
beforeAll(async () => {
  const certificates = await createTestCertificates(hosts);
  server = await startTestServer(certificates, (_request, reply) =>
    current === undefined ? reply.code(500).send() : reply.code(current.status).headers(current.headers).send(JSON.stringify(current.body)),
  );
  const dispatcher = createLoopbackDispatcher(certificates.ca, new Map(hosts.map((host) => [host, server.port])));
  closeDispatcher = () => dispatcher.destroy();
  executor = createExecutor({ registry, dispatcher, limits: { retries: 0 } });
});
afterAll(async () => {
  await closeDispatcher();
  await server.close();
});

async function run(id: string, example: Example, page?: string): Promise<Envelope> {
  current = example.response;
  return executor.run({
    integration: id,
    op: example.op,
    args: example.args,
    credential: { token: "documented-example-token" },
    connection: example.connection,
    ...(page === undefined ? {} : { page }),
  });
}

describe.each(manifests.map((manifest) => [manifest.id] as const))("%s", (id) => {
  const manifest = registry.get(id);
  const fixture = examples.get(id) ?? {};
  const cases = Object.entries(fixture).filter((entry): entry is [string, Example] => typeof entry[1] === "object");

  it("declares its error dialect, and every list op pages", () => {
    expect(manifest?.errors).toBeDefined();
    const recorded = read(`./__fixtures__/${id}.json`) as Record<string, { picked: unknown }>;
    for (const op of manifest?.ops ?? []) {
      const isList =
        op.access === "read" &&
        Array.isArray(recorded[op.id]?.picked) &&
        !NOT_LISTS.has(`${id} ${op.id}`) &&
        !WHOLE_LISTS.has(`${id} ${op.id}`) &&
        !PAGE_NUMBER_LISTS.has(`${id} ${op.id}`) &&
        !LAST_ID_LISTS.has(`${id} ${op.id}`);
      // The arg that carries the page number or offset (page, offset, start_at) tells the bot how to reach the next page.
      if (PAGE_NUMBER_LISTS.has(`${id} ${op.id}`))
        expect(
          Object.values(op.args ?? {}).some((arg) => /next page/.test(arg.description ?? "")),
          `${id} ${op.id}`,
        ).toBe(true);
      if (LAST_ID_LISTS.has(`${id} ${op.id}`))
        expect(
          Object.values(op.args ?? {}).some((arg) => /last id of the previous answer/.test(arg.description ?? "")),
          `${id} ${op.id}`,
        ).toBe(true);
      expect(op.page !== undefined, `${id} ${op.id}`).toBe(isList);
    }
  });

  it("quotes documented examples: a success, a failure in its own dialect and a page with more, each with its source", () => {
    const pages = manifest?.ops.some((op) => op.page !== undefined) === true;
    expect(Object.keys(fixture)).toEqual(expect.arrayContaining(["success", "failure", ...(pages ? ["page"] : [])]));
    expect(Object.hasOwn(fixture, "page")).toBe(pages);
    for (const [, example] of cases) expect(example.source).toMatch(/^https:\/\//);
  });

  it.each(cases.filter(([name]) => name !== "page"))("%s comes back as the provider meant it", async (_name, example) => {
    const envelope = await run(id, example);
    const expected = example.expect;
    if (expected?.status === "ok") {
      expect(envelope.status).toBe("ok");
      expect(Object.hasOwn(envelope, "next_page")).toBe(expected.next_page === true);
    } else {
      // A provider that answers a failure in plain text (Trello's "invalid key") has no code or message to quote.
      const provider = expected?.provider === undefined ? {} : { provider: expected.provider };
      expect(envelope).toMatchObject({ status: "error", error: { code: expected?.code, http_status: expected?.http_status, ...provider } });
      if (expected?.provider === undefined) expect(envelope.status === "error" ? envelope.error.provider : "ok").toBeUndefined();
    }
  });

  it("a page with more hands out next_page, and the next page asks for the provider's cursor (or no op pages: every list is whole)", async () => {
    if (fixture.page === undefined) {
      expect(manifest?.ops.filter((op) => op.page !== undefined)).toEqual([]);
      return;
    }
    const example = fixture.page as Example;
    const first = await run(id, example);
    expect(first.status).toBe("ok");
    const token = (first as OkEnvelope).next_page;
    expect(token).toEqual(expect.any(String));
    server.requests.length = 0;
    await run(id, example, token);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.url).toBe(example.next_request?.path);
    if (example.next_request?.body_variables !== undefined) {
      expect((JSON.parse(server.requests[0]?.body ?? "{}") as { variables: unknown }).variables).toEqual(example.next_request.body_variables);
    }
    if (example.next_request?.body !== undefined) expect(JSON.parse(server.requests[0]?.body ?? "null")).toEqual(example.next_request.body);
  });
});

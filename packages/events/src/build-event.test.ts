import { parseManifest, type Manifest } from "@eleven-integrations/schema";
import { describe, expect, it } from "vitest";
import { matchesSubscriptionArgs, polledEvent, webhookEvent } from "./build-event.js";

function manifestWith(events: unknown[]): Manifest {
  const result = parseManifest({
    schema: 1,
    id: "demo",
    name: "Demo",
    category: "testing",
    auth: { kind: "pat", base: "https://api.demo.example.com", authorization: "Bearer", pat_help: "https://demo.example.com/tokens" },
    ops: [
      { id: "items.list", label: "List items", access: "read", method: "GET", path: "/items", pick: { root: "items", fields: ["id", "title", "owner.login"] } },
    ],
    events,
  });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.manifest;
}

const ISSUE_OPENED = {
  id: "issues.opened",
  label: "An issue was opened",
  source: "webhook",
  webhook: {
    verify: "github",
    type: [
      { header: "X-GitHub-Event", in: ["issues"] },
      { body: "action", in: ["opened"] },
    ],
    delivery: { header: "X-GitHub-Delivery" },
    account: { body: "repository.owner.id" },
  },
  args: { repo: { path: "repository.full_name" } },
  pick: { fields: ["issue.title", "repository.full_name"] },
  line: "New issue “{issue.title}” in {repository.full_name}",
};
const ITEM_NEW = {
  id: "items.new",
  label: "A new item",
  source: "poll",
  poll: { op: "items.list", every: 60, key: "id" },
  pick: { fields: ["id", "title", "owner.login"] },
  line: "New item {title} by {owner.login}",
};

const manifest = manifestWith([ISSUE_OPENED, ITEM_NEW]);
const HEADERS = { "X-GitHub-Event": "issues", "X-GitHub-Delivery": "d-1" };
const body = (value: unknown) => Buffer.from(JSON.stringify(value));
const PAYLOAD = { action: "opened", issue: { title: "Found a bug", body: "secret details" }, repository: { full_name: "octo/hello", owner: { id: 583231 } } };

describe("webhookEvent", () => {
  it("maps a verified payload to the declared event, only its picked fields, and its line", () => {
    expect(webhookEvent({ manifest, dialect: "github", headers: HEADERS, body: body(PAYLOAD) })).toEqual({
      ok: true,
      event: "issues.opened",
      data: { "issue.title": "Found a bug", "repository.full_name": "octo/hello" },
      line: "New issue “Found a bug” in octo/hello",
      delivery_id: "d-1",
      account: "583231",
    });
  });

  it("fails closed: an event type the manifest does not declare is undeclared_event", () => {
    expect(webhookEvent({ manifest, dialect: "github", headers: HEADERS, body: body({ ...PAYLOAD, action: "deleted" }) })).toEqual({
      ok: false,
      reason: "undeclared_event",
    });
    expect(webhookEvent({ manifest, dialect: "github", headers: { ...HEADERS, "X-GitHub-Event": "push" }, body: body(PAYLOAD) })).toEqual({
      ok: false,
      reason: "undeclared_event",
    });
    expect(webhookEvent({ manifest, dialect: "slack", headers: HEADERS, body: body(PAYLOAD) })).toEqual({ ok: false, reason: "undeclared_event" });
    expect(webhookEvent({ manifest: manifestWith([ITEM_NEW]), dialect: "github", headers: HEADERS, body: body(PAYLOAD) })).toEqual({
      ok: false,
      reason: "undeclared_event",
    });
  });

  it("no delivery id where the manifest says it is, or a body it cannot read: malformed", () => {
    expect(webhookEvent({ manifest, dialect: "github", headers: { "X-GitHub-Event": "issues" }, body: body(PAYLOAD) })).toEqual({
      ok: false,
      reason: "malformed",
    });
    expect(webhookEvent({ manifest, dialect: "github", headers: HEADERS, body: Buffer.from("[1,2]") })).toEqual({ ok: false, reason: "malformed" });
  });

  it("neutralises a picked value in the line as on a chip (no bidi override, no newline reaches it)", () => {
    const result = webhookEvent({ manifest, dialect: "github", headers: HEADERS, body: body({ ...PAYLOAD, issue: { title: "a\u202Eb\nc" } }) });
    expect(result.ok && result.line).not.toContain("\u202E");
    expect(result.ok && result.line).not.toContain("\n");
    expect(result.ok && result.data["issue.title"]).toBe("a\u202Eb\nc");
  });
});

describe("polledEvent", () => {
  it("maps one polled item (as the op picked it) to the event", () => {
    expect(polledEvent({ manifest, event: "items.new", item: { id: "7", title: "Plan", "owner.login": "ada", extra: "never" } })).toEqual({
      ok: true,
      event: "items.new",
      data: { id: "7", title: "Plan", "owner.login": "ada" },
      line: "New item Plan by ada",
    });
  });

  it("fails closed on an event that is not a declared poll event, and refuses an item without its key", () => {
    expect(polledEvent({ manifest, event: "items.gone", item: { id: "7" } })).toEqual({ ok: false, reason: "undeclared_event" });
    expect(polledEvent({ manifest, event: "issues.opened", item: { id: "7" } })).toEqual({ ok: false, reason: "undeclared_event" });
    expect(polledEvent({ manifest, event: "items.new", item: { title: "no id" } })).toEqual({ ok: false, reason: "malformed" });
  });
});

describe("matchesSubscriptionArgs", () => {
  const event = manifest.events?.[0];
  it("matches filter args against the declared payload paths, and refuses undeclared args", () => {
    if (event === undefined) throw new Error("no event");
    expect(matchesSubscriptionArgs(event, { repo: "octo/hello" }, body(PAYLOAD))).toBe(true);
    expect(matchesSubscriptionArgs(event, { repo: "octo/other" }, body(PAYLOAD))).toBe(false);
    expect(matchesSubscriptionArgs(event, { owner: "octo" }, body(PAYLOAD))).toBe(false);
    expect(matchesSubscriptionArgs(event, undefined, body(PAYLOAD))).toBe(true);
  });
});

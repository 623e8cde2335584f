import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical-json.js";
import { manifestJsonSchema } from "./json-schema.js";
import { parseManifest } from "./parse-manifest.js";

const WEBHOOK_EVENT = {
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
  args: { repo: { path: "repository.full_name", description: "owner/name" } },
  pick: { fields: ["issue.number", "issue.title", "repository.full_name"] },
  line: "New issue “{issue.title}” in {repository.full_name}",
};

const POLL_EVENT = {
  id: "items.new",
  label: "A new item",
  source: "poll",
  poll: { op: "items.list", args: { folder: "{folder}" }, every: 60, key: "id", since: "after" },
  args: { folder: { required: true } },
  pick: { fields: ["id", "title"] },
  line: "New item {title}",
};

function manifest(events?: unknown[]): Record<string, unknown> {
  const json: Record<string, unknown> = {
    schema: 1,
    id: "demo",
    name: "Demo",
    category: "testing",
    auth: { kind: "pat", base: "https://api.demo.example.com", authorization: "Bearer", pat_help: "https://demo.example.com/tokens" },
    ops: [
      {
        id: "items.list",
        label: "List items",
        access: "read",
        method: "GET",
        path: "/items",
        args: { folder: { required: true }, after: {} },
        pick: { root: "items", fields: ["id", "title", "owner.login"] },
      },
      {
        id: "items.create",
        label: "Create an item",
        access: "write",
        method: "POST",
        path: "/items",
        args: { title: { required: true } },
        confirm: "Create item {title}",
      },
    ],
  };
  if (events !== undefined) json["events"] = events;
  return json;
}

function issuesOf(events: unknown[]): { path: string; message: string }[] {
  const result = parseManifest(manifest(events));
  return result.ok ? [] : result.issues;
}

const paths = (events: unknown[]) => issuesOf(events).map((issue) => issue.path);

describe("events in a manifest", () => {
  it("a manifest without events stays valid and keeps its bytes (its hash)", () => {
    const result = parseManifest(manifest());
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(Object.hasOwn(result.manifest, "events")).toBe(false);
      expect(canonicalJson(result.manifest)).toBe(canonicalJson(manifest()));
    }
  });

  it("takes a webhook event and a poll event", () => {
    expect(issuesOf([WEBHOOK_EVENT, POLL_EVENT])).toEqual([]);
  });

  it("refuses a dialect outside the closed list", () => {
    expect(paths([{ ...WEBHOOK_EVENT, webhook: { ...WEBHOOK_EVENT.webhook, verify: "none" } }])).toEqual(["events[0].webhook.verify"]);
    expect(paths([{ ...WEBHOOK_EVENT, webhook: { ...WEBHOOK_EVENT.webhook, verify: "accept-unverified" } }])).toEqual(["events[0].webhook.verify"]);
  });

  it("refuses duplicate event ids", () => {
    expect(issuesOf([WEBHOOK_EVENT, WEBHOOK_EVENT])).toEqual([{ path: "events[1].id", message: 'duplicates event id "issues.opened"' }]);
  });

  it("refuses a line placeholder that is not a picked field", () => {
    const issues = issuesOf([{ ...WEBHOOK_EVENT, line: "New issue {issue.body}" }]);
    expect(issues.map((issue) => issue.path)).toEqual(["events[0].line"]);
    expect(issues[0]?.message).toContain("{issue.body} is not a picked field");
  });

  it("refuses a poll that names an undeclared op, a write op, an arg the op lacks, or leaves a required arg out", () => {
    expect(paths([{ ...POLL_EVENT, poll: { ...POLL_EVENT.poll, op: "items.search" } }])).toEqual(["events[0].poll.op"]);
    expect(paths([{ ...POLL_EVENT, poll: { ...POLL_EVENT.poll, op: "items.create" } }])).toEqual(["events[0].poll.op"]);
    expect(paths([{ ...POLL_EVENT, poll: { ...POLL_EVENT.poll, args: { folder: "{folder}", color: "red" } } }])).toEqual(["events[0].poll.args.color"]);
    expect(paths([{ ...POLL_EVENT, args: {}, poll: { ...POLL_EVENT.poll, args: {} } }])).toEqual(["events[0].poll.args"]);
    expect(paths([{ ...POLL_EVENT, poll: { ...POLL_EVENT.poll, since: "before" } }])).toEqual(["events[0].poll.since"]);
  });

  it("refuses every under 30 seconds", () => {
    expect(paths([{ ...POLL_EVENT, poll: { ...POLL_EVENT.poll, every: 29 } }])).toEqual(["events[0].poll.every"]);
    expect(issuesOf([{ ...POLL_EVENT, poll: { ...POLL_EVENT.poll, every: 30 } }])).toEqual([]);
  });

  it("refuses a poll key or picked field its op does not pick, and a template over an undeclared event arg", () => {
    expect(paths([{ ...POLL_EVENT, poll: { ...POLL_EVENT.poll, key: "uuid" } }])).toEqual(["events[0].poll.key"]);
    expect(paths([{ ...POLL_EVENT, pick: { fields: ["id", "title", "secret"] } }])).toEqual(["events[0].pick.fields[2]"]);
    expect(paths([{ ...POLL_EVENT, poll: { ...POLL_EVENT.poll, args: { folder: "{box}" } } }])).toEqual(["events[0].poll.args", "events[0].args.folder"]);
  });

  it("refuses a source without its block, or with the other's", () => {
    const { webhook: _webhook, ...bare } = WEBHOOK_EVENT;
    expect(paths([bare])).toEqual(["events[0].webhook"]);
    expect(paths([{ ...WEBHOOK_EVENT, poll: POLL_EVENT.poll }])).toEqual(["events[0].poll"]);
  });

  it("refuses a webhook filter arg without the payload path it matches, and an event that picks nothing", () => {
    expect(paths([{ ...WEBHOOK_EVENT, args: { repo: {} } }])).toEqual(["events[0].args.repo.path"]);
    expect(paths([{ ...WEBHOOK_EVENT, pick: { root: "issue" }, line: "An issue" }])).toEqual(["events[0].pick.fields"]);
  });

  it("refuses a place naming both or neither of header and body, and unknown keys", () => {
    expect(paths([{ ...WEBHOOK_EVENT, webhook: { ...WEBHOOK_EVENT.webhook, delivery: { header: "X-GitHub-Delivery", body: "id" } } }])).toEqual([
      "events[0].webhook.delivery",
    ]);
    expect(paths([{ ...WEBHOOK_EVENT, webhook: { ...WEBHOOK_EVENT.webhook, delivery: {} } }])).toEqual(["events[0].webhook.delivery"]);
    expect(paths([{ ...WEBHOOK_EVENT, unverified: true }])).toEqual(["events[0]"]);
  });

  it("the generated JSON Schema describes events", () => {
    const schema = manifestJsonSchema() as { properties: Record<string, unknown> };
    expect(JSON.stringify(schema.properties["events"])).toContain('"webhook"');
    expect(JSON.stringify(schema.properties["events"])).toContain('"standard-webhooks"');
  });
});

import { parseManifest } from "@eleven-integrations/schema";
import { describe, expect, it } from "vitest";
import { validManifest } from "./__fixtures__/valid-manifest.js";
import { loadRegistry } from "./load-registry.js";
import { canonicalJson } from "@eleven-integrations/schema";
import { manifestFiles } from "@eleven-integrations/manifests";
import { sha256Hex } from "./manifest-hash.js";
import { RegistryError, type RegistryIssue } from "./registry-error.js";
import { fastManifestCheck } from "./validate-manifest.js";

type Json = Record<string, unknown>;

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
  },
  args: { repo: { path: "repository.full_name" } },
  pick: { fields: ["issue.title", "repository.full_name"] },
  line: "New issue “{issue.title}” in {repository.full_name}",
};

const POLL_EVENT = {
  id: "repos.created",
  label: "A repository was created",
  source: "poll",
  poll: { op: "repos.list", args: { sort: "created" }, every: 300, key: "full_name" },
  pick: { fields: ["full_name", "owner.login"] },
  line: "New repository {full_name}",
};

function withEvents(events: unknown[]): Json {
  return { ...validManifest(), events };
}

function issuesOf(json: Json): RegistryIssue[] {
  try {
    loadRegistry([{ file: "example.json", json }]);
  } catch (error) {
    expect(RegistryError.isInstance(error)).toBe(true);
    return [...(error as RegistryError).issues];
  }
  throw new Error("expected the registry to be refused");
}

const CASES: [string, unknown[], string][] = [
  ["a poll naming an undeclared op", [{ ...POLL_EVENT, poll: { ...POLL_EVENT.poll, op: "repos.search" } }], "events[0].poll.op"],
  ["every under 30 seconds", [{ ...POLL_EVENT, poll: { ...POLL_EVENT.poll, every: 10 } }], "events[0].poll.every"],
  ["a line placeholder not in pick", [{ ...WEBHOOK_EVENT, line: "New issue {issue.body}" }], "events[0].line"],
  ["an unknown dialect", [{ ...WEBHOOK_EVENT, webhook: { ...WEBHOOK_EVENT.webhook, verify: "hmac" } }], "events[0].webhook.verify"],
  ["duplicate event ids", [WEBHOOK_EVENT, WEBHOOK_EVENT], "events[1].id"],
];

describe("events: the loader checks them with file and JSON path", () => {
  it("loads a manifest with a webhook and a poll event", () => {
    expect(loadRegistry([{ file: "example.json", json: withEvents([WEBHOOK_EVENT, POLL_EVENT]) }]).get("example")).toBeDefined();
    expect(fastManifestCheck(withEvents([WEBHOOK_EVENT, POLL_EVENT]))).toBe(true);
  });

  it.each(CASES)("refuses %s", (_name, events, path) => {
    const issues = issuesOf(withEvents(events));
    expect(issues.map((issue) => `${issue.file}: ${issue.path}`)).toContain(`example.json: ${path}`);
    // The fast path gives zod's verdict.
    expect(fastManifestCheck(withEvents(events))).toBe(false);
    expect(parseManifest(withEvents(events)).ok).toBe(false);
  });

  it("a third-release manifest keeps its hash: the hash of its own bytes, events absent adding nothing", () => {
    const { $schema: _schema, ...content } = validManifest();
    const registry = loadRegistry([{ file: "example.json", json: validManifest() }]);
    expect(registry.manifestHash("example")).toBe(sha256Hex(canonicalJson(content)));
    expect(loadRegistry([{ file: "example.json", json: withEvents([WEBHOOK_EVENT]) }]).manifestHash("example")).not.toBe(registry.manifestHash("example"));
    for (const { file, json } of manifestFiles.filter((entry) => !Object.hasOwn(entry.json as Json, "events")).slice(0, 5)) {
      const { $schema: _editor, ...shipped } = json as Json;
      expect(loadRegistry([{ file, json }]).manifestHash(shipped["id"] as string), file).toBe(sha256Hex(canonicalJson(shipped)));
    }
  });
});

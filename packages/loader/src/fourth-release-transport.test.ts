import { describe, expect, it } from "vitest";
import { loadRegistry } from "./load-registry.js";
import { RegistryError, type RegistryIssue } from "./registry-error.js";
import { validManifest } from "./__fixtures__/valid-manifest.js";

type Json = Record<string, any>;

function refused(mutate: (manifest: Json) => void): RegistryIssue[] {
  const manifest = validManifest() as Json;
  mutate(manifest);
  try {
    loadRegistry([{ file: "example.json", text: JSON.stringify(manifest) }]);
  } catch (error) {
    expect(RegistryError.isInstance(error)).toBe(true);
    return [...(error as RegistryError).issues];
  }
  throw new Error("expected the registry to be refused");
}

function load(mutate: (manifest: Json) => void) {
  const manifest = validManifest() as Json;
  mutate(manifest);
  return loadRegistry([{ file: "example.json", json: manifest }]);
}

/** ops[0] (repos.list, a GET read with an optional `sort` query arg) given transport fields. */
const list = (manifest: Json): Json => manifest.ops[0];
const withOffsetArgs = (manifest: Json): Json => {
  const op = list(manifest);
  op.path = "/user/repos?per_page={per_page}&page={page}&sort={sort}";
  op.args = { ...op.args, per_page: { type: "integer" }, page: { type: "integer" } };
  return op;
};

describe("fourth-release transport fields load, each optional", () => {
  it("loads op headers, auth.credential, auth.hosts with op host, and offset and page paging", () => {
    const registry = load((manifest) => {
      manifest.auth.credential = { in: "header", name: "X-Example-Token" };
      manifest.auth.hosts = { content: "https://content.example.com/2" };
      const op = withOffsetArgs(manifest);
      op.host = "content";
      op.headers = { "Dropbox-API-Arg": '{"sort":"{sort}"}', "Idempotency-Key": "k-{sort}" };
      op.page = { from: "offset", arg: "page", limit_arg: "per_page", items: "items", total: "total_count" };
    });
    const op = registry.operation("example", "repos.list");
    expect(op?.credential).toEqual({ in: "header", name: "X-Example-Token" });
    expect(op?.base.fixed).toEqual({ origin: "https://content.example.com", basePath: "/2" });
    expect(op?.opHeaders.map((header) => header.render({ sort: "créé" }))).toEqual([
      { ok: true, name: "Dropbox-API-Arg", value: '{"sort":"cr\\u00e9\\u00e9"}' },
      { ok: false, name: "Idempotency-Key", arg: "sort", problem: "not_ascii" },
    ]);
    expect(op?.paging?.cursorFromCount?.({ items: [1, 2], total_count: 10 }, { per_page: "2", page: "4" })).toBe("6");
    expect(op?.paging?.cursorFromCount?.({ items: [1, 2], total_count: 6 }, { per_page: "2", page: "4" })).toBeUndefined();
    // Other ops of the manifest stay on base.
    expect(registry.operation("example", "issues.get")?.base.fixed).toEqual({ origin: "https://api.example.com", basePath: "/v2" });
  });

  it("page paging counts from `first` (1 by default) and stops by its rule", () => {
    const pagingOf = (first: number | undefined) =>
      load((manifest) => {
        withOffsetArgs(manifest).page = { from: "page", arg: "page", limit: 3, items: "items", more: "has_more", ...(first === undefined ? {} : { first }) };
      }).operation("example", "repos.list")?.paging;
    const full = { has_more: true, items: [1, 2, 3] };
    expect(pagingOf(0)?.cursorFromCount?.(full, {})).toBe("1");
    expect(pagingOf(undefined)?.cursorFromCount?.(full, {})).toBe("2");
    expect(pagingOf(undefined)?.cursorFromCount?.(full, { page: "7" })).toBe("8");
    expect(pagingOf(undefined)?.cursorFromCount?.({ has_more: false, items: [1, 2, 3] }, {})).toBeUndefined();
    expect(pagingOf(undefined)?.cursorFromCount?.({ has_more: true, items: [1, 2] }, {})).toBeUndefined();
    expect(pagingOf(undefined)?.cursorFromCount?.({ has_more: true, items: [] }, {})).toBeUndefined();
  });
});

const OWNED = [
  "Authorization",
  "HOST",
  "cookie",
  "Content-Length",
  "Transfer-Encoding",
  "Connection",
  "Proxy-Authorization",
  "Keep-Alive",
  "te",
  "Trailer",
  "Upgrade",
];

const cases: [string, (manifest: Json) => void, string, RegExp][] = [
  ...OWNED.map((name): [string, (manifest: Json) => void, string, RegExp] => [
    `an op setting ${name}`,
    (manifest) => void (list(manifest).headers = { [name]: "x" }),
    /^[A-Za-z]+$/.test(name) ? `ops[0].headers.${name}` : `ops[0].headers["${name}"]`,
    /set by the executor/,
  ]),
  ["an op header value with CR LF", (m) => void (list(m).headers = { "X-A": "a\r\nX-Evil: 1" }), 'ops[0].headers["X-A"]', /control/],
  ["an op header value with NUL", (m) => void (list(m).headers = { "X-A": "a\u0000" }), 'ops[0].headers["X-A"]', /control/],
  ["an op header naming an undeclared arg", (m) => void (list(m).headers = { "X-A": "{nope}" }), 'ops[0].headers["X-A"]', /\{nope\} names no declared arg/],
  ["op headers equal but for case", (m) => void (list(m).headers = { "X-A": "a", "x-a": "b" }), 'ops[0].headers["x-a"]', /case-insensitive/],
  ["an op header auth.headers sets", (m) => void (list(m).headers = { accept: "a" }), "ops[0].headers.accept", /already set by auth.headers/],
  [
    "an op header the credential travels in",
    (m) => {
      m.auth.credential = { in: "header", name: "X-Token" };
      list(m).headers = { "x-token": "a" };
    },
    'ops[0].headers["x-token"]',
    /already set by auth.credential/,
  ],
  ["a credential in Authorization", (m) => void (m.auth.credential = { in: "header", name: "Authorization" }), "auth.credential.name", /set by the executor/],
  ["a credential in an unknown place", (m) => void (m.auth.credential = { in: "cookie", name: "t" }), "auth.credential.in", /./],
  ["a credential query key with &", (m) => void (m.auth.credential = { in: "query", name: "a&b" }), "auth.credential.name", /query key/],
  [
    "a credential for OAuth tokens only",
    (m) => {
      m.auth.kind = "oauth";
      delete m.auth.pat_help;
      m.auth.credential = { in: "query", name: "token" };
    },
    "auth.credential",
    /personal token/,
  ],
  [
    "a credential header auth.headers sets",
    (m) => void (m.auth.credential = { in: "header", name: "accept" }),
    "auth.credential.name",
    /also set in auth.headers/,
  ],
  ["an http host", (m) => void (m.auth.hosts = { content: "http://content.example.com" }), "auth.hosts.content", /https/],
  ["a host on a private name", (m) => void (m.auth.hosts = { content: "https://files.internal" }), "auth.hosts.content", /./],
  ["a host by IP address", (m) => void (m.auth.hosts = { content: "https://10.0.0.1" }), "auth.hosts.content", /./],
  ["a host with a tenant placeholder", (m) => void (m.auth.hosts = { content: "https://{sub}.example.com" }), "auth.hosts.content", /tenant/],
  ["a host with a query", (m) => void (m.auth.hosts = { content: "https://content.example.com/?a=1" }), "auth.hosts.content", /./],
  ["a host name in capitals", (m) => void (m.auth.hosts = { Content: "https://content.example.com" }), "auth.hosts.Content", /host names/],
  ["an op naming an undeclared host", (m) => void (list(m).host = "content"), "ops[0].host", /names no host of auth.hosts/],
  [
    "an op naming a host of another manifest's kind",
    (m) => {
      m.auth.hosts = { upload: "https://upload.example.com" };
      list(m).host = "content";
    },
    "ops[0].host",
    /names no host/,
  ],
  ["offset paging with an undeclared arg", (m) => void (withOffsetArgs(m).page = { from: "offset", arg: "start" }), "ops[0].page.arg", /names no declared arg/],
  [
    "offset paging with an undeclared limit arg",
    (m) => void (withOffsetArgs(m).page = { from: "offset", arg: "page", limit_arg: "size" }),
    "ops[0].page.limit_arg",
    /names no declared arg/,
  ],
  [
    "offset paging with both a limit arg and a fixed limit",
    (m) => void (withOffsetArgs(m).page = { from: "offset", arg: "page", limit_arg: "per_page", limit: 20 }),
    "ops[0].page.limit",
    /not both/,
  ],
  [
    "page paging whose arg is not sent",
    (m) => {
      const op = withOffsetArgs(m);
      op.args.other = {};
      op.page = { from: "page", arg: "other" };
    },
    "ops[0].page.arg",
    /query value or a whole body leaf/,
  ],
  [
    "page paging with limit_arg equal to arg",
    (m) => void (withOffsetArgs(m).page = { from: "page", arg: "page", limit_arg: "page" }),
    "ops[0].page.limit_arg",
    /another arg/,
  ],
  [
    "page paging whose page arg is required",
    (m) => {
      const op = withOffsetArgs(m);
      op.args.page.required = true;
      op.page = { from: "page", arg: "page" };
    },
    "ops[0].args.page.required",
    /must be optional/,
  ],
  ["a file result on a read with pick", (m) => void (list(m).result = "file"), "ops[0].pick", /no pick/],
  [
    "a file result on a write",
    (m) => {
      const write = m.ops.find((op: Json) => op.access === "write");
      write.result = "file";
    },
    "ops[2].result",
    /only a read answers a file/,
  ],
  ["an unknown result kind", (m) => void (list(m).result = "stream"), "ops[0].result", /./],
  ["page paging with first 2", (m) => void (withOffsetArgs(m).page = { from: "page", arg: "page", first: 2 }), "ops[0].page.first", /./],
];

describe("offset and page paging stop rules from the answer", () => {
  const pagingOf = (page: Json) =>
    load((manifest) => {
      withOffsetArgs(manifest).page = page;
    }).operation("example", "repos.list")?.paging;

  it("stops when `last` is true (Jira's isLast), whatever the count", () => {
    const paging = pagingOf({ from: "offset", arg: "page", items: "values", last: "isLast" });
    expect(paging?.cursorFromCount?.({ values: [1, 2], isLast: false }, { page: "50" })).toBe("52");
    expect(paging?.cursorFromCount?.({ values: [1, 2], isLast: true }, {})).toBeUndefined();
  });

  it("stops when the page sent reaches `total_pages` (Cloudflare's result_info)", () => {
    const paging = pagingOf({ from: "page", arg: "page", items: "result", total_pages: "result_info.total_pages" });
    expect(paging?.cursorFromCount?.({ result: [1], result_info: { total_pages: 3 } }, {})).toBe("2");
    expect(paging?.cursorFromCount?.({ result: [1], result_info: { total_pages: 3 } }, { page: "2" })).toBe("3");
    expect(paging?.cursorFromCount?.({ result: [1], result_info: { total_pages: 3 } }, { page: "3" })).toBeUndefined();
  });

  it("without a page size, a short page still goes on while the answer's own signal says more", () => {
    const paging = pagingOf({ from: "offset", arg: "page", items: "incidents", more: "more" });
    expect(paging?.cursorFromCount?.({ incidents: [1], more: true }, { page: "25" })).toBe("26");
  });
});

describe("fourth-release transport fields refused with file and JSON path", () => {
  it.each(cases)("%s", (_name, mutate, path, message) => {
    const issues = refused(mutate);
    const match = issues.find((issue) => issue.path === path && message.test(issue.message));
    expect(match, `expected an issue at ${path} matching ${message}; got ${JSON.stringify(issues)}`).toBeDefined();
    expect(issues.every((issue) => issue.file === "example.json")).toBe(true);
  });
});

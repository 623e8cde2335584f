import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { manifestsDir } from "@eleven-integrations/manifests";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CommandIo } from "../io.js";
import { main } from "../main.js";

const specsDir = join(dirname(manifestsDir), "specs");
const LINEAR = join(specsDir, "linear.graphql");

type Op = Record<string, unknown> & {
  id: string;
  args?: Record<string, Record<string, unknown>>;
  body_json: { query: string; variables?: Record<string, string> };
  pick?: { root?: string; fields?: string[] };
};
type ManifestJson = Record<string, unknown> & { id: string; ops: Op[] };

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "graphql-check-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function linear(): Promise<ManifestJson> {
  return JSON.parse(await readFile(join(manifestsDir, "linear.json"), "utf8")) as ManifestJson;
}
const op = (manifest: ManifestJson, id: string) => manifest.ops.find((candidate) => candidate.id === id) as Op;

async function check(manifest: ManifestJson, schema = LINEAR, extra: string[] = []): Promise<{ code: number; out: string; err: string }> {
  const file = join(dir, "linear.json");
  await writeFile(file, JSON.stringify(manifest));
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIo = { stdout: (text) => void out.push(text), stderr: (text) => void err.push(text), env: {}, cwd: dir };
  const code = await main(["graphql", "check", file, "--schema", schema, ...extra], io);
  return { code, out: out.join(""), err: err.join("") };
}
const line = (out: string, id: string) => out.split("\n").find((text) => new RegExp(`^\\S+\\s+${id.replace(".", "\\.")}\\s`).test(text)) ?? "";

describe("integrations graphql check (Linear's schema)", () => {
  it("passes the shipped Linear manifest", async () => {
    const result = await check(await linear());
    expect(result.code).toBe(0);
    expect(line(result.out, "issues.create")).toMatch(/^ok\s+issues\.create\s+mutation$/);
    expect(result.out).toMatch(/^linear: \d+ ops checked against linear\.graphql: \d+ ok, 0 mismatches, 0 allowed$/m);
  });

  it("refuses a field that does not exist", async () => {
    const manifest = await linear();
    const get = op(manifest, "issues.get");
    get.body_json.query = get.body_json.query.replace("identifier title", "identifier headline title");
    const result = await check(manifest);
    expect(result.code).toBe(1);
    expect(line(result.out, "issues.get")).toContain('Cannot query field "headline" on type "Issue".');
  });

  it("refuses a pick path the query does not select", async () => {
    const manifest = await linear();
    op(manifest, "issues.get").pick?.fields?.push("priorityLabel", "state.color");
    op(manifest, "teams.list").pick = { root: "data.team.nodes", fields: ["id"] };
    const result = await check(manifest);
    expect(line(result.out, "issues.get")).toContain('pick field "priorityLabel" is not selected by the query');
    expect(line(result.out, "issues.get")).toContain('pick field "state.color" is not selected by the query');
    expect(line(result.out, "teams.list")).toContain('pick.root "data.team.nodes" is not selected by the query');
  });

  it("refuses variables that do not match the args: unknown, never sent, not always sent, wrong type", async () => {
    const manifest = await linear();
    const create = op(manifest, "issues.create");
    (create.args as Record<string, Record<string, unknown>>).team_id = { ...create.args?.team_id, required: false };
    create.body_json.variables = { ...create.body_json.variables, teamID: "{team_id}" };
    const comment = op(manifest, "comments.create");
    comment.body_json = {
      query:
        "mutation($issueId: String!, $body: String!, $n: Int) { commentCreate(input: { issueId: $issueId, body: $body }) { success comment { id url createdAt } } }",
      variables: { issueId: "{issue}", body: "{body}", n: "{issue}" },
    };
    const result = await check(manifest);
    const text = line(result.out, "issues.create");
    expect(text).toContain('variable "teamID" is not declared by the query');
    expect(text).toContain("non-null variable $teamId is not always sent");
    expect(line(result.out, "comments.create")).toContain("variable $n is Int, but {issue} is sent as a string");
  });

  it("refuses a placeholder spliced into the query, and a query that does not parse", async () => {
    const manifest = await linear();
    op(manifest, "issues.search").body_json.query = 'query { searchIssues(term: "{query}", first: 20) { nodes { identifier } } }';
    op(manifest, "teams.list").body_json.query = "query { teams(first: 50) { nodes { id key name } }";
    const result = await check(manifest);
    expect(line(result.out, "issues.search")).toContain("{query} is spliced into the query text; pass it in body_json.variables");
    expect(line(result.out, "teams.list")).toContain("the query does not parse: Syntax Error");
  });

  it("checks a paging declaration: the cursor and the more flag are selected by the query", async () => {
    const manifest = await linear();
    const teams = op(manifest, "teams.list");
    teams.args = { after: { max_length: 512 } };
    teams.body_json = {
      query: "query($after: String) { teams(first: 50, after: $after) { nodes { id key name } pageInfo { hasNextPage endCursor } } }",
      variables: { after: "{after}" },
    };
    teams.page = { from: "body", arg: "after", cursor: "data.teams.pageInfo.endCursor", more: "data.teams.pageInfo.hasNextPage" };
    expect((await check(manifest)).code).toBe(0);
    teams.page = { from: "body", arg: "after", cursor: "data.teams.pageInfo.startCursor", more: "data.teams.pageInfo.hasNextPage" };
    const result = await check(manifest);
    expect(result.code).toBe(1);
    expect(line(result.out, "teams.list")).toContain('page.cursor "data.teams.pageInfo.startCursor" is not selected by the query');
  });

  it("refuses a schema that is not GraphQL (exit 2)", async () => {
    const bad = join(dir, "bad.graphql");
    await writeFile(bad, "type Query { x: Nope }");
    const result = await check(await linear(), bad);
    expect(result.code).toBe(2);
    expect(result.err).toContain("is not a GraphQL schema");
  });
});

describe("the pinned Linear schema", () => {
  it("is what manifests/specs/linear-schema.mjs rebuilds from the pinned @linear/sdk", async () => {
    const generator = (await import(join(specsDir, "linear-schema.mjs"))) as { linearSchemaFromSdk: () => string };
    expect(generator.linearSchemaFromSdk()).toBe(await readFile(LINEAR, "utf8"));
  }, 120_000);
});

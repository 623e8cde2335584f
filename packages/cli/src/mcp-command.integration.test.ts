import { mkdtemp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { issueGrant, ready } from "@eleven-integrations/grants";
import { loadRegistry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";
import { startSidecar, type RunningSidecar } from "@eleven-integrations/sidecar";
// The sidecar's loopback TLS stand-in for api.github.com (test-support's TLS kit): real TLS, real undici.
import { startProviderStandIn, type ProviderStandIn } from "../../../apps/sidecar/src/__fixtures__/provider-stand-in.js";
import { main } from "./main.js";
import type { CommandIo } from "./io.js";

const TOKEN = "ghp_mcp_token_never_leaves_the_sidecar";
const BIN = fileURLToPath(new URL("../dist/bin.js", import.meta.url));

let dir: string;
let provider: ProviderStandIn;
let sidecar: RunningSidecar;
let memberFile: string;

async function cli(argv: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIo = { stdout: (text) => void out.push(text), stderr: (text) => void err.push(text), env, cwd: dir };
  const code = await main(argv, io);
  return { code, out: out.join(""), err: err.join("") };
}

async function grantFile(access: "read" | "write", extra: string[] = []): Promise<string> {
  const issued = await cli(
    ["grant", "--member", memberFile, "--bot", sidecar.publicKey, "--integration", "github", "--access", access, "--token-env", "GH", ...extra],
    { GH: TOKEN },
  );
  expect(issued.code).toBe(0);
  const file = join(dir, `grant-${access}-${extra.length}-${Math.random().toString(36).slice(2)}.txt`);
  await writeFile(file, issued.out, { mode: 0o600 });
  return file;
}

/** The CLI's MCP server over stdio, driven by the SDK's own client. */
async function connect(grantFiles: string[], extra: string[] = []): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      BIN,
      "mcp",
      "--sidecar",
      sidecar.address,
      "--caller-token-file",
      sidecar.callerTokenFile,
      ...grantFiles.flatMap((file) => ["--grant", `@${file}`]),
      ...extra,
    ],
    env: { PATH: process.env.PATH ?? "" },
    stderr: "pipe",
  });
  const chunks: string[] = [];
  transport.stderr?.on("data", (chunk: Buffer) => chunks.push(chunk.toString("utf8")));
  const client = new Client({ name: "mcp-test-client", version: "1.0.0" });
  await client.connect(transport);
  return { client, stderr: () => chunks.join("") };
}

const clients: Client[] = [];

beforeAll(async () => {
  await ready();
  dir = await mkdtemp(join(tmpdir(), "cli-mcp-"));
  memberFile = join(dir, "member.json");
  const keys = await cli(["keys", "member", "--out", memberFile]);
  const home = join(dir, "sidecar");
  await mkdir(home, { mode: 0o700 });
  await writeFile(join(home, "trusted-members.json"), JSON.stringify([keys.out.trim()]), { mode: 0o600 });
  provider = await startProviderStandIn();
  // The default: the sidecar on its 0600 Unix socket, the MCP server speaking to it there.
  sidecar = await startSidecar({ home, dispatcher: provider.dispatcher });
});

afterAll(async () => {
  for (const client of clients) await client.close();
  await sidecar?.close();
  await provider?.close();
  await rm(dir, { recursive: true, force: true });
});

function text(result: CallToolResult): string {
  return result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

describe("integrations mcp, driven by the MCP SDK's client over stdio", () => {
  it("lists the ops a GitHub write grant allows as tools: names, schemas from the args, read-only and destructive hints", async () => {
    const { client } = await connect([await grantFile("write")]);
    clients.push(client);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "github__repos__list",
      "github__issues__list",
      "github__issues__get",
      "github__pulls__list",
      "github__search__issues",
      "github__pulls__get",
      "github__issues__create",
      "github__issues__comment",
      "github__issues__close",
      "github__pulls__create",
      "github__pulls__merge",
      "github__users__me",
      "github__repos__read_file",
      "github__issues__add_labels",
    ]);
    for (const tool of tools) expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    const list = byName.github__issues__list;
    expect(list?.description).toContain("List issues in a repository.");
    expect(list?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
    expect(list?.inputSchema).toEqual({
      type: "object",
      properties: {
        owner: {
          type: "string",
          maxLength: 39,
          pattern: "^(?:^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$)$",
          description: "Account or organization that owns the repository (e.g. octocat)",
        },
        repo: { type: "string", maxLength: 100, pattern: "^(?:^[A-Za-z0-9._-]{1,100}$)$", description: "Repository name without the owner (e.g. Hello-World)" },
        state: { type: "string", maxLength: 256, enum: ["open", "closed", "all"], description: "Issue state (default open)" },
        // The manifest's cursor arg (also named page) is replaced by the opaque page input.
        page: { type: "string", maxLength: 1024, description: "The next_page of the previous result, to get the page after it. Leave out for the first page." },
      },
      required: ["owner", "repo"],
      additionalProperties: false,
    });
    const create = byName.github__issues__create;
    expect(create?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(create?.inputSchema.required).toEqual(["owner", "repo", "title"]);
    expect(create?.inputSchema.properties).toHaveProperty("confirmation");
    expect(byName.github__issues__close?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.github__repos__list?.inputSchema.properties).not.toHaveProperty("confirmation");
  });

  it("a read grant gives the reads only", async () => {
    const { client } = await connect([await grantFile("read")]);
    clients.push(client);
    const { tools } = await client.listTools();
    expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
    expect(tools.map((tool) => tool.name)).not.toContain("github__issues__create");
  });

  it("calls a read through the sidecar", async () => {
    const { client } = await connect([await grantFile("read")]);
    clients.push(client);
    const before = provider.requests.length;
    const result = (await client.callTool({ name: "github__repos__list", arguments: { sort: "updated" } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ status: "ok", http_status: 200 });
    expect(JSON.parse(text(result))[0]).toMatchObject({ full_name: "octocat/hello-world" });
    expect(provider.requests.length).toBe(before + 1);
    expect(provider.requests.at(-1)).toMatchObject({ method: "GET", authorization: `Bearer ${TOKEN}` });
    expect(provider.requests.at(-1)?.url).toBe("/user/repos?sort=updated&per_page=30");
  });

  it("pages a read: next_page in the result, page on the next call, until the last page", async () => {
    const { client } = await connect([await grantFile("read")]);
    clients.push(client);
    const titles: string[] = [];
    let page: string | undefined;
    for (let call = 0; call < 3; call += 1) {
      const args: Record<string, string> = { owner: "octocat", repo: "hello-world", ...(page === undefined ? {} : { page }) };
      const result = (await client.callTool({ name: "github__issues__list", arguments: args })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      const structured = result.structuredContent as { status: string; data: { title: string }[]; next_page?: string };
      expect(structured.status).toBe("ok");
      titles.push(...structured.data.map((issue) => issue.title));
      page = structured.next_page;
      if (call < 2) {
        expect(typeof page).toBe("string");
        expect(text(result)).toContain(`page set to next_page: ${page}`);
      }
    }
    expect(titles).toEqual(["Fifth", "Fourth", "Third"]);
    expect(page).toBeUndefined();
    const tampered = (await client.callTool({
      name: "github__issues__list",
      arguments: { owner: "octocat", repo: "hello-world", page: "not-a-page" },
    })) as CallToolResult;
    expect(tampered.isError).toBe(true);
    expect(tampered.structuredContent).toMatchObject({ error: { code: "invalid_args" } });
  });

  it("a write without confirmation answers the line, details and args digest (not an error); with the member's confirmation it runs once", async () => {
    const { client } = await connect([await grantFile("write")]);
    clients.push(client);
    const args = { owner: "octocat", repo: "hello-world", title: "Filed by an agent", body: "Steps to reproduce: start it." };
    const before = provider.requests.length;
    const asked = (await client.callTool({ name: "github__issues__create", arguments: args })) as CallToolResult;
    expect(asked.isError).toBeFalsy();
    const required = asked.structuredContent as {
      status: string;
      confirm: string;
      details: { name: string; value: string }[];
      args_digest: string;
      gid: string;
    };
    expect(required.status).toBe("confirmation_required");
    expect(required.confirm).toContain("Filed by an agent");
    expect(required.details).toContainEqual(expect.objectContaining({ name: "body", value: "Steps to reproduce: start it." }));
    expect(text(asked)).toContain(required.confirm);
    expect(text(asked)).toContain(required.args_digest);
    expect(provider.requests.length).toBe(before);

    // The member sees the line and signs the tap on their own device.
    const confirmArgs = Object.entries(args).flatMap(([name, value]) => ["--arg", `${name}=${value}`]);
    const signed = await cli([
      "confirm",
      "--member",
      memberFile,
      "--gid",
      required.gid,
      "github",
      "issues.create",
      ...confirmArgs,
      "--expect-digest",
      required.args_digest,
      "--yes",
    ]);
    expect(signed.code).toBe(0);
    const confirmation = signed.out.trim();

    const ran = (await client.callTool({ name: "github__issues__create", arguments: { ...args, confirmation } })) as CallToolResult;
    expect(ran.isError).toBeFalsy();
    expect(ran.structuredContent).toMatchObject({ status: "ok", http_status: 201, data: { number: 42, title: "Filed by an agent" } });
    expect(provider.requests.length).toBe(before + 1);
    expect(provider.requests.at(-1)?.body).toEqual({ title: "Filed by an agent", body: "Steps to reproduce: start it." });

    // The same call again: the sidecar answers the write's stored outcome, replayed, and sends nothing.
    const replayed = (await client.callTool({ name: "github__issues__create", arguments: { ...args, confirmation } })) as CallToolResult;
    expect(replayed.isError).toBeFalsy();
    expect(replayed.structuredContent).toEqual({ ...(ran.structuredContent as object), replayed: true });
    expect(provider.requests.length).toBe(before + 1);
    // Other args under that confirmation: confirmation_invalid, nothing sent.
    const other = (await client.callTool({ name: "github__issues__create", arguments: { ...args, title: "Something else", confirmation } })) as CallToolResult;
    expect(other.isError).toBe(true);
    expect(other.structuredContent).toMatchObject({ status: "error", error: { code: "confirmation_invalid" } });
    expect(provider.requests.length).toBe(before + 1);
  });

  it("errors are tool errors with the envelope's code and next action; nothing is sent", async () => {
    const { client } = await connect([await grantFile("read")]);
    clients.push(client);
    const before = provider.requests.length;
    const invalid = (await client.callTool({ name: "github__issues__list", arguments: { owner: "-bad-", repo: "x" } })) as CallToolResult;
    expect(invalid.isError).toBe(true);
    expect(invalid.structuredContent).toMatchObject({ status: "error", error: { code: "invalid_args" } });
    expect(text(invalid)).toContain("\nNext: ");
    const unknown = (await client.callTool({ name: "github__issues__create", arguments: {} })) as CallToolResult;
    expect(unknown.isError).toBe(true);
    expect(unknown.structuredContent).toMatchObject({ error: { code: "unknown_tool" } });
    expect(provider.requests.length).toBe(before);
  });

  it("reads the grant file on every call: an expired grant is a grant_expired tool error, a fresh one works without a restart", async () => {
    const file = await grantFile("read");
    const { client } = await connect([file]);
    clients.push(client);
    expect(((await client.callTool({ name: "github__repos__list", arguments: {} })) as CallToolResult).structuredContent).toMatchObject({ status: "ok" });

    const member = JSON.parse(await readFile(memberFile, "utf8")) as { publicKey: string; secretKey: string };
    const registry = loadRegistry(manifestFiles);
    const now = Math.floor(Date.now() / 1000);
    const expired = issueGrant({
      member,
      botPublicKey: sidecar.publicKey,
      integration: "github",
      manifestHash: registry.manifestHash("github") as string,
      access: "read",
      credential: { kind: "pat", token: TOKEN },
      ttlSeconds: 600,
      now: now - 3600,
    });
    await writeFile(file, expired);
    const refused = (await client.callTool({ name: "github__repos__list", arguments: {} })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ status: "error", error: { code: "grant_expired" } });
    expect(text(refused)).toMatch(/\nNext: Ask the member for a fresh grant/);

    await writeFile(file, await readFile(await grantFile("read"), "utf8"));
    expect(((await client.callTool({ name: "github__repos__list", arguments: {} })) as CallToolResult).structuredContent).toMatchObject({ status: "ok" });
  });

  it("holds no token: the grant stays sealed, and nothing secret reaches its log", async () => {
    const { client, stderr } = await connect([await grantFile("write")]);
    clients.push(client);
    await client.listTools();
    expect(sidecar.address).toMatch(/^unix:\//);
    expect(stderr()).toContain("serving 14 tools");
    expect(stderr()).not.toContain(TOKEN);
  });
});

describe("standing approvals and the grant's policy, from the CLI to the MCP tools", () => {
  async function approvalFile(extra: string[]): Promise<{ code: number; file: string; err: string }> {
    const signed = await cli([
      "approve",
      "github",
      "issues.create",
      "--member",
      memberFile,
      "--bot",
      sidecar.publicKey,
      "--runs",
      "2",
      "--per",
      "day",
      "--yes",
      ...extra,
    ]);
    const file = join(dir, `approval-${Math.random().toString(36).slice(2)}.txt`);
    await writeFile(file, signed.out, { mode: 0o600 });
    return { code: signed.code, file, err: signed.err };
  }

  it("approve refuses to leave an arg without a constraint, naming it, and signs nothing", async () => {
    const refused = await approvalFile(["--arg", "owner=octocat", "--arg", "repo=hello-world", "--any", "title"]);
    expect(refused.code).not.toBe(0);
    expect(refused.err).toContain("needs a constraint");
    expect(refused.err).toContain("body");
    expect(await readFile(refused.file, "utf8")).toBe("");
  });

  it("approve shows the line it signs; policy prints the review; the MCP server runs the approved write with no tap and lists no blocked tool", async () => {
    const approved = await approvalFile(["--arg", "owner=octocat", "--arg", "repo=hello-world", "--any", "title", "--any", "body"]);
    expect(approved.code).toBe(0);
    expect(approved.err).toContain("Always allow, without asking each time");
    expect(approved.err).toContain("These writes will run without asking you.");
    expect(await readFile(approved.file, "utf8")).toMatch(/^ea1\./);
    const grant = await grantFile("write", ["--policy", "issues.close=block"]);

    const review = await cli([
      "policy",
      "--grant",
      `@${grant}`,
      "--approval",
      `@${approved.file}`,
      "--sidecar",
      sidecar.address,
      "--caller-token-file",
      sidecar.callerTokenFile,
    ]);
    expect(review.code).toBe(0);
    expect(review.out).toMatch(/issues\.create \(write\): runs without asking under approval [A-Za-z0-9_-]{22}: 2 left/);
    expect(review.out).toContain("issues.close (write): blocked");
    expect(review.out).toContain("issues.comment (write): asks the member (a tap)");

    const { client } = await connect([grant], ["--approval", `@${approved.file}`]);
    clients.push(client);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).not.toContain("github__issues__close");
    const before = provider.requests.filter((request) => request.method === "POST").length;
    const result = (await client.callTool({
      name: "github__issues__create",
      arguments: { owner: "octocat", repo: "hello-world", title: "From the agent" },
    })) as CallToolResult;
    expect(result.isError).not.toBe(true);
    expect(text(result)).toContain('"title":"From the agent"');
    expect(provider.requests.filter((request) => request.method === "POST").length - before).toBe(1);
    // Outside the approval's room the agent is asked for the member's tap, as without one.
    const elsewhere = (await client.callTool({
      name: "github__issues__create",
      arguments: { owner: "someone-else", repo: "hello-world", title: "Not covered" },
    })) as CallToolResult;
    expect(text(elsewhere)).toContain("Confirmation required: nothing ran yet");
    expect(provider.requests.filter((request) => request.method === "POST").length - before).toBe(1);
  });
});

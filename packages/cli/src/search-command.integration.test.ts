import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ready } from "@eleven-integrations/grants";
import { loadRegistry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";
import { buildApp } from "@eleven-integrations/broker";
import { startSidecar, type RunningSidecar } from "@eleven-integrations/sidecar";
import { main } from "./main.js";
import type { CommandIo } from "./io.js";

let dir: string;
let sidecar: RunningSidecar;
let broker: ReturnType<typeof buildApp>;
let brokerUrl: string;
let memberFile: string;

async function cli(argv: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIo = { stdout: (text) => void out.push(text), stderr: (text) => void err.push(text), env, cwd: dir };
  const code = await main(argv, io);
  return { code, out: out.join(""), err: err.join("") };
}

beforeAll(async () => {
  await ready();
  dir = await mkdtemp(join(tmpdir(), "cli-search-"));
  memberFile = join(dir, "member.json");
  const keys = await cli(["keys", "member", "--out", memberFile]);
  const home = join(dir, "sidecar");
  await mkdir(home, { mode: 0o700 });
  await writeFile(join(home, "trusted-members.json"), JSON.stringify([keys.out.trim()]), { mode: 0o600 });
  sidecar = await startSidecar({ home, port: 0 });
  broker = buildApp({
    registry: loadRegistry(manifestFiles),
    publicUrl: "https://broker.example.com",
    stateKey: Buffer.alloc(32, 7).toString("base64url"),
    oauthApps: { github: { clientId: "Iv1.search", clientSecret: "cli-search-client-secret" } },
    allowedReturnTo: [],
    logger: false,
  });
  brokerUrl = await broker.listen({ host: "127.0.0.1", port: 0 });
});

afterAll(async () => {
  await sidecar?.close();
  await broker?.close();
  await rm(dir, { recursive: true, force: true });
});

async function grantFile(access: "read" | "write", integration = "github"): Promise<string> {
  const issued = await cli(
    ["grant", "--member", memberFile, "--bot", sidecar.publicKey, "--integration", integration, "--access", access, "--token-env", "TOKEN"],
    { TOKEN: "search_token_never_printed" },
  );
  expect(issued.code).toBe(0);
  const file = join(dir, `${integration}-${access}.grant`);
  await writeFile(file, issued.out, { mode: 0o600 });
  return `@${file}`;
}

describe("integrations search", () => {
  it("ranks the local registry with the shared index", async () => {
    const result = await cli(["search", "create", "github", "issue"]);
    expect(result.code).toBe(0);
    expect(result.out.split("\n")[0]).toBe(" 1. github issues.create  write  Open an issue");
    const close = await cli(["search", "close issue", "--limit", "1"]);
    expect(close.out).toBe(" 1. github issues.close  write, destructive  Close an issue\n");
    const json = JSON.parse((await cli(["search", "slack", "--json", "--limit", "2"])).out);
    expect(json.results[0]).toMatchObject({ kind: "integration", integration: "slack" });
  });

  it("exits 1 when nothing matches", async () => {
    const result = await cli(["search", "qqqqzzzz"]);
    expect(result.code).toBe(1);
    expect(result.err).toBe("nothing matches\n");
  });

  it("asks a broker, printing its OAuth availability", async () => {
    const result = await cli(["search", "github", "--broker", brokerUrl, "--limit", "1"]);
    expect(result.code).toBe(0);
    expect(result.out).toBe(" 1. github  GitHub  [development, both]  (OAuth here)\n");
    const slack = await cli(["search", "slack", "--broker", brokerUrl, "--limit", "1"]);
    expect(slack.out).toContain("(OAuth not here)");
    const refused = await cli(["search", "x", "--broker", brokerUrl, "--category", "a".repeat(10), "--access", "write"]);
    expect(refused.code).toBe(1);
  });

  it("asks a sidecar with the bot's grants, printing each op's readiness and next action", async () => {
    const read = await grantFile("read");
    const result = await cli([
      "search",
      "open github issue",
      "--sidecar",
      sidecar.address,
      "--caller-token-file",
      sidecar.callerTokenFile,
      "--grant",
      read,
      "--limit",
      "1",
    ]);
    expect(result.code).toBe(0);
    expect(result.out).toBe(
      " 1. github issues.create  write  Open an issue  [needs_write_grant]\n" +
        "    Ask the member for a write grant to GitHub: the grant given only reads, and issues.create (Open an issue) writes.\n",
    );
    const write = await grantFile("write");
    const ready = await cli([
      "search",
      "open github issue",
      "--sidecar",
      sidecar.address,
      "--caller-token-file",
      sidecar.callerTokenFile,
      "--grant",
      read,
      "--grant",
      write,
      "--json",
    ]);
    expect(JSON.parse(ready.out).results[0]).toMatchObject({ op: "issues.create", readiness: "ready", grant: 1 });
    expect(ready.out).not.toContain("search_token_never_printed");
    const none = await cli(["search", "post slack message", "--sidecar", sidecar.address, "--caller-token-file", sidecar.callerTokenFile, "--limit", "1"]);
    expect(none.out).toContain("[needs_grant]");
  });

  it("refuses a grant on the command line, --grant without --sidecar, and a bad --access", async () => {
    const literal = await cli(["search", "x", "--sidecar", sidecar.address, "--caller-token-file", sidecar.callerTokenFile, "--grant", "eg1.abc"]);
    expect(literal.code).toBe(2);
    expect(literal.err).toContain("--grant takes @file or - (standard input), never the grant itself");
    expect((await cli(["search", "x", "--grant", "@/nonexistent"])).err).toContain("--grant needs --sidecar");
    expect((await cli(["search", "x", "--access", "admin"])).code).toBe(2);
    expect((await cli(["search"])).err).toContain("search takes the words to look for");
    expect((await cli(["search", "x", "--sidecar", "http://example.com:8787", "--caller-token-file", sidecar.callerTokenFile])).err).toContain(
      "loopback http origin",
    );
  });
});

// The Python bot against a real sidecar on its Unix socket, GitHub played by the sidecar's
// loopback TLS stand-in (which copies GitHub's documented answers and Link paging), and the
// member's tap signed with the grants package as the member's client would sign it.
import { spawn } from "node:child_process";
import { mkdtemp, readFile, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateMemberKeys, issueApproval, issueGrant, issueSubscription, ready, renderApprovalLine, signConfirmation } from "@eleven-integrations/grants";
import { loadRegistry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";
import { startSidecar, type RunningSidecar } from "@eleven-integrations/sidecar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ISSUE_PAGES, startProviderStandIn, type ProviderStandIn } from "../../apps/sidecar/src/__fixtures__/provider-stand-in.js";
import { startTodoistStandIn, todoistTask } from "../../apps/sidecar/src/__fixtures__/todoist-stand-in.js";

const BOT = new URL("./bot.py", import.meta.url).pathname;
const MEMBER_TOKEN = "ghp_theMembersTokenNeverPrinted0123456789";

await ready();
const member = generateMemberKeys();
const registry = loadRegistry(manifestFiles);

let provider: ProviderStandIn;
let sidecar: RunningSidecar;
let home: string;

beforeAll(async () => {
  provider = await startProviderStandIn();
  home = await mkdtemp(join(tmpdir(), "python-bot-"));
  await writeFile(join(home, "trusted-members.json"), JSON.stringify([member.publicKey]));
  sidecar = await startSidecar({ home, dispatcher: provider.dispatcher });
});
afterAll(async () => {
  await sidecar?.close();
  await provider?.close();
});

async function grantFile(access: "read" | "write"): Promise<string> {
  const grant = issueGrant({
    member,
    botPublicKey: sidecar.publicKey,
    integration: "github",
    manifestHash: registry.manifestHash("github") as string,
    access,
    credential: { kind: "pat", token: MEMBER_TOKEN },
    ttlSeconds: 600,
  });
  const file = join(await mkdtemp(join(tmpdir(), "python-bot-grant-")), "grant.txt");
  await writeFile(file, `${grant}\n`, { mode: 0o600 });
  return file;
}

interface Chip {
  op: string;
  args: Record<string, string>;
  line: string;
  gid: string;
}

/**
 * Runs the bot; when it prints its chip, `tap` gets it and answers the line the bot
 * reads from standard input (the member's confirmation), or null for no tap.
 */
function runBot(
  args: string[],
  tap: (chip: Chip) => string | null = () => null,
  sidecarHome = home,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("python3", [BOT, ...args], { env: { PATH: process.env["PATH"] ?? "", SIDECAR_HOME: sidecarHome }, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const chipLine = stdout.split("\n").find((line) => line.startsWith("chip: "));
      if (chipLine !== undefined && stdout.includes("waiting for the member's confirmation") && !child.stdin.writableEnded) {
        const answer = tap(JSON.parse(chipLine.slice("chip: ".length)) as Chip);
        child.stdin.end(answer === null ? "" : `${answer}\n`);
      }
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const READ_ARGS = ["--read", "issues.list", "--read-arg", "owner=octocat", "--read-arg", "repo=hello-world"];
const WRITE_ARGS = ["--write", "issues.create", "--write-arg", "owner=octocat", "--write-arg", "repo=hello-world", "--write-arg", "title=Found a bug"];

describe("examples/python-bot", () => {
  it("reads its identity and ops, pages a read, and writes once through the member's tap", async () => {
    const sentBefore = provider.requests.length;
    let tapped: Chip | undefined;
    const result = await runBot(["--grant", await grantFile("write"), ...READ_ARGS, "--pages", "5", ...WRITE_ARGS], (chip) => {
      tapped = chip;
      // The member's client: signs exactly the line it showed, for that op and those args, under the grant's gid.
      return signConfirmation({ member, grant: { gid: chip.gid, iss: member.publicKey }, op: chip.op, args: chip.args, line: chip.line });
    });
    console.log(`the Python bot printed:\n${result.stdout}`);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[0]).toBe(`identity: bot key ${sidecar.publicKey} (registry ${registry.hash.slice(0, 12)}, embedded)`);
    const githubOps = registry.get("github")?.ops ?? [];
    expect(lines).toContain(`ops: github (write): ${githubOps.length} ops`);
    expect(lines).toContain("  issues.list [read, pages] List issues in a repository");
    expect(lines).toContain("  issues.create [write] Open an issue");
    ISSUE_PAGES.forEach((page, index) => {
      const picked = page.map(({ node_id: _dropped, ...rest }) => rest);
      expect(lines).toContain(`read issues.list page ${index + 1}: ${JSON.stringify(picked)}`);
    });
    expect(lines).toContain("read issues.list: no more pages");
    expect(tapped).toMatchObject({ op: "issues.create", args: { owner: "octocat", repo: "hello-world", title: "Found a bug" } });
    expect(tapped?.line).toContain("Found a bug");
    expect(result.stdout).toMatch(/^wrote issues\.create: 201 \{"number":42,/m);
    const sent = provider.requests.slice(sentBefore);
    expect(sent.map((request) => `${request.method} ${request.url.split("?")[0]}`)).toEqual([
      "GET /repos/octocat/hello-world/issues",
      "GET /repos/octocat/hello-world/issues",
      "GET /repos/octocat/hello-world/issues",
      "POST /repos/octocat/hello-world/issues",
    ]);
    expect(sent[3]?.body).toEqual({ title: "Found a bug" });
    expect(result.stdout).not.toContain(MEMBER_TOKEN);
    expect(result.stdout).not.toContain((await readFile(join(home, "caller-token"), "utf8")).trim());
  });

  it("writes nothing when the member does not tap, and says what the sidecar refused when the tap is not the member's", async () => {
    const sentBefore = provider.requests.length;
    const untapped = await runBot(["--grant", await grantFile("write"), ...READ_ARGS, "--pages", "1", ...WRITE_ARGS]);
    expect(untapped.code).toBe(1);
    expect(untapped.stdout).toContain("read issues.list: more pages after 1");
    expect(untapped.stdout).toContain("no confirmation: nothing written");

    const stranger = generateMemberKeys();
    const forged = await runBot(["--grant", await grantFile("write"), ...READ_ARGS, "--pages", "1", ...WRITE_ARGS], (chip) =>
      signConfirmation({ member: stranger, grant: { gid: chip.gid, iss: stranger.publicKey }, op: chip.op, args: chip.args, line: chip.line }),
    );
    expect(forged.code).toBe(1);
    expect(forged.stdout).toMatch(/^refused: confirmation_invalid: /m);
    expect(forged.stdout).toMatch(/^next: /m);
    expect(provider.requests.slice(sentBefore).filter((request) => request.method === "POST")).toEqual([]);
  });

  it("runs a write under the member's standing approval with no tap, and reads the policy review", async () => {
    const manifest = registry.get("github");
    if (manifest === undefined) throw new Error("no github manifest");
    const now = Math.floor(Date.now() / 1000);
    const args = { owner: { eq: "octocat" }, repo: { eq: "hello-world" }, title: "any" as const, body: "any" as const };
    const budget = { runs: 5, per_seconds: 86_400 };
    const approval = issueApproval({
      member,
      botPublicKey: sidecar.publicKey,
      integration: "github",
      manifestHash: registry.manifestHash("github") as string,
      op: "issues.create",
      args,
      budget,
      line: renderApprovalLine({ manifest, op: "issues.create", args, budget, exp: now + 3600 }),
      ttlSeconds: 3600,
      now,
    });
    const approvalFile = join(await mkdtemp(join(tmpdir(), "python-bot-approval-")), "approval.txt");
    await writeFile(approvalFile, `${approval}\n`, { mode: 0o600 });
    const sentBefore = provider.requests.length;
    const result = await runBot(["--grant", await grantFile("write"), ...READ_ARGS, "--pages", "1", ...WRITE_ARGS, "--approval", approvalFile], () => {
      throw new Error("no chip under an approval");
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("policy: issues.create: approved (5 runs left)");
    expect(result.stdout).toContain("policy: issues.comment: ask");
    expect(result.stdout).toContain("policy: repos.list: allow");
    expect(result.stdout).not.toContain("chip: ");
    expect(result.stdout).toMatch(/^wrote issues\.create: 201 /m);
    expect(result.stdout).toMatch(/^receipt: ew1\./m);
    expect(provider.requests.slice(sentBefore).filter((request) => request.method === "POST")).toHaveLength(1);
  });

  it("stops with a typed error and exit 2 when the caller token is wrong, quoting no secret", async () => {
    const wrongHome = await mkdtemp(join(tmpdir(), "python-bot-wrong-"));
    await writeFile(join(wrongHome, "caller-token"), "not-the-token\n");
    await symlink(join(home, "sidecar.sock"), join(wrongHome, "sidecar.sock"));
    const grant = await grantFile("read");
    const child = await runBot(["--grant", grant], undefined, wrongHome);
    expect(child.code).toBe(2);
    expect(child.stderr.trim()).toBe("error: the sidecar refused the call (401 unauthorized)");
    expect(child.stderr).not.toContain("not-the-token");
  });

  it("says there is no sidecar when nothing listens in SIDECAR_HOME", async () => {
    const emptyHome = await mkdtemp(join(tmpdir(), "python-bot-empty-"));
    await writeFile(join(emptyHome, "caller-token"), "a-token\n");
    const child = await runBot(["--grant", join(emptyHome, "caller-token")], undefined, emptyHome);
    expect(child.code).toBe(2);
    expect(child.stderr).toContain(`error: cannot reach the sidecar in ${emptyHome}: FileNotFoundError`);
  });
});

describe("examples/python-bot --events", () => {
  it("subscribes to a polled event and prints the new task once it appears, as the sidecar delivered it", async () => {
    const todoist = await startTodoistStandIn();
    const eventsHome = await mkdtemp(join(tmpdir(), "python-bot-events-"));
    await writeFile(join(eventsHome, "trusted-members.json"), JSON.stringify([member.publicKey]));
    const polling = await startSidecar({ home: eventsHome, dispatcher: todoist.dispatcher, pollEveryMs: 200 });
    try {
      const dir = await mkdtemp(join(tmpdir(), "python-bot-events-tokens-"));
      const grant = issueGrant({
        member,
        botPublicKey: polling.publicKey,
        integration: "todoist",
        manifestHash: registry.manifestHash("todoist") as string,
        access: "read",
        credential: { kind: "pat", token: MEMBER_TOKEN },
        ttlSeconds: 3600,
      });
      const subscription = issueSubscription({
        member,
        botPublicKey: polling.publicKey,
        integration: "todoist",
        manifestHash: registry.manifestHash("todoist") as string,
        events: ["task.added"],
        ttlSeconds: 7 * 86_400,
      });
      await writeFile(join(dir, "grant.txt"), `${grant}\n`, { mode: 0o600 });
      await writeFile(join(dir, "subscription.txt"), `${subscription}\n`, { mode: 0o600 });
      const args = [
        BOT,
        "--grant",
        join(dir, "grant.txt"),
        "--events",
        "--subscription",
        join(dir, "subscription.txt"),
        "--max-events",
        "1",
        "--wait-ms",
        "5000",
      ];
      const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
        const child = spawn("python3", args, { env: { PATH: process.env["PATH"] ?? "", SIDECAR_HOME: eventsHome }, stdio: ["ignore", "pipe", "pipe"] });
        let stdout = "";
        let stderr = "";
        let added = false;
        child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
          stdout += chunk;
          // The baseline is taken: a task added now is news.
          if (!added && stdout.includes("subscribed: ")) {
            added = true;
            todoist.tasks.unshift(todoistTask("8PyBot000001", "Reply to the landlord"));
          }
        });
        child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
          stderr += chunk;
        });
        child.on("error", reject);
        child.on("close", (code) => resolve({ code, stdout, stderr }));
      });
      console.log(`the Python bot printed:\n${result.stdout}`);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^subscribed: [A-Za-z0-9_-]{22} todoist task\.added; task\.added every 60 s \(baseline 2\)$/m);
      const eventLine = result.stdout.split("\n").find((line) => line.startsWith("event: "));
      expect(JSON.parse(eventLine?.slice("event: ".length) ?? "{}")).toMatchObject({
        integration: "todoist",
        event: "task.added",
        data: { id: "8PyBot000001", content: "Reply to the landlord", project_id: "6Jf8VQXxpwv56VQ7", "due.string": "tomorrow" },
        line: "New task “Reply to the landlord”",
      });
      expect(result.stdout).toContain("  New task “Reply to the landlord”");
      expect(result.stdout).not.toContain(MEMBER_TOKEN);
    } finally {
      await polling.close();
      await todoist.close();
    }
  });
});

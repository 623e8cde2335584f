import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ready } from "@eleven-integrations/grants";
import { startSidecar, type RunningSidecar } from "@eleven-integrations/sidecar";
// The sidecar's loopback TLS stand-in for api.github.com: one provider fixture for both suites.
import { startProviderStandIn, type ProviderStandIn } from "../../../apps/sidecar/src/__fixtures__/provider-stand-in.js";
import { main } from "./main.js";
import type { CommandIo } from "./io.js";

const TOKEN = "ghp_cli_run_token_never_printed";

let dir: string;
let provider: ProviderStandIn;
let sidecar: RunningSidecar;
let memberFile: string;

function capture(env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIo = { stdout: (text) => void out.push(text), stderr: (text) => void err.push(text), env, cwd: dir };
  return { io, out, err, text: () => out.join(""), errors: () => err.join("") };
}

async function cli(argv: string[], env: Record<string, string> = {}) {
  const run = capture(env);
  const code = await main(argv, run.io);
  return { code, out: run.text(), err: run.errors() };
}

beforeAll(async () => {
  await ready();
  dir = await mkdtemp(join(tmpdir(), "cli-run-"));
  memberFile = join(dir, "member.json");
  const keys = await cli(["keys", "member", "--out", memberFile]);
  const home = join(dir, "sidecar");
  provider = await startProviderStandIn();
  await import("node:fs/promises").then((fs) => fs.mkdir(home, { mode: 0o700 }));
  await writeFile(join(home, "trusted-members.json"), JSON.stringify([keys.out.trim()]), { mode: 0o600 });
  sidecar = await startSidecar({ home, port: 0, dispatcher: provider.dispatcher });
});

afterAll(async () => {
  await sidecar?.close();
  await provider?.close();
  await rm(dir, { recursive: true, force: true });
});

async function grant(access: "read" | "write"): Promise<string> {
  const file = join(dir, `${access}-grant.txt`);
  const issued = await cli(
    ["grant", "--member", memberFile, "--bot", sidecar.publicKey, "--integration", "github", "--access", access, "--token-env", "GH"],
    { GH: TOKEN },
  );
  expect(issued.code).toBe(0);
  await writeFile(file, issued.out);
  return `@${file}`;
}

const runArgs = (grantRef: string, op: string, args: string[]) => [
  "run", "github", op, "--grant", grantRef, "--sidecar", sidecar.address, "--caller-token-file", sidecar.callerTokenFile, ...args,
];

describe("integrations run against a real sidecar", () => {
  it("runs a read and prints the picked envelope", async () => {
    const result = await cli(runArgs(await grant("read"), "repos.list", []));
    expect(result.code).toBe(0);
    const envelope = JSON.parse(result.out);
    expect(envelope).toMatchObject({ status: "ok", integration: "github", op: "repos.list", http_status: 200 });
    expect(envelope.data[0]).toEqual(expect.objectContaining({ full_name: "octocat/hello-world" }));
    expect(envelope.data[0]).not.toHaveProperty("node_id");
    expect(provider.requests.at(-1)?.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("plays member and bot for a write: confirmation_required, confirm, run once", async () => {
    const grantRef = await grant("write");
    const args = ["--arg", "owner=octocat", "--arg", "repo=hello-world", "--arg", "title=From the CLI"];
    const before = provider.requests.length;
    const asked = await cli(runArgs(grantRef, "issues.create", args));
    expect(asked.code).toBe(1);
    const required = JSON.parse(asked.out);
    expect(required).toMatchObject({ status: "confirmation_required", op: "issues.create" });
    expect(provider.requests.length).toBe(before);

    const confirmed = await cli(["confirm", "--member", memberFile, "--gid", required.gid, "github", "issues.create", ...args, "--expect-digest", required.args_digest]);
    expect(confirmed.code).toBe(0);
    expect(confirmed.err).toBe(`confirming: ${required.confirm}\n`);

    const ran = await cli([...runArgs(grantRef, "issues.create", args), "--confirmation", confirmed.out.trim()]);
    expect(ran.code).toBe(0);
    expect(JSON.parse(ran.out)).toMatchObject({ status: "ok", http_status: 201 });
    expect(provider.requests.length).toBe(before + 1);

    const replayed = await cli([...runArgs(grantRef, "issues.create", args), "--confirmation", confirmed.out.trim()]);
    expect(JSON.parse(replayed.out).error.code).toBe("confirmation_invalid");
    expect(provider.requests.length).toBe(before + 1);
  });

  it("exits 1 with a clear message when the sidecar cannot be reached or the token file is missing", async () => {
    const grantRef = await grant("read");
    const unreachable = await cli(["run", "github", "repos.list", "--grant", grantRef, "--sidecar", "http://127.0.0.1:9", "--caller-token-file", sidecar.callerTokenFile]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.err).toMatch(/cannot reach the sidecar at http:\/\/127\.0\.0\.1:9/);
    const missing = await cli(["run", "github", "repos.list", "--grant", grantRef, "--sidecar", sidecar.address, "--caller-token-file", join(dir, "nope")]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("cannot read the caller token file");
    const remote = await cli(["run", "github", "repos.list", "--grant", grantRef, "--sidecar", "http://example.com:8787"]);
    expect(remote.code).toBe(2);
  });

  it("revokes a grant: the member signs with integrations revoke, the sidecar then refuses the grant", async () => {
    const grantRef = await grant("read");
    expect(JSON.parse((await cli(runArgs(grantRef, "repos.list", []))).out).status).toBe("ok");
    const signed = await cli(["revoke", "--member", memberFile, "--grant", grantRef]);
    expect(signed.code).toBe(0);
    expect(signed.out).toMatch(/^er1\.[A-Za-z0-9_-]+\n$/);
    const callerToken = (await readFile(sidecar.callerTokenFile, "utf8")).trim();
    const response = await fetch(`${sidecar.address}/v1/revoke`, {
      method: "POST",
      headers: { authorization: `Bearer ${callerToken}`, "content-type": "application/json" },
      body: JSON.stringify({ revocation: signed.out.trim() }),
    });
    expect(await response.json()).toMatchObject({ status: "ok", integration: "github" });
    const before = provider.requests.length;
    const refused = JSON.parse((await cli(runArgs(grantRef, "repos.list", []))).out);
    expect(refused).toMatchObject({ status: "error", error: { code: "grant_invalid", message: "the member revoked this grant" } });
    expect(provider.requests.length).toBe(before);
  });

  it("refuses a revoke whose grant is not a file, or not a grant", async () => {
    const inline = await cli(["revoke", "--member", memberFile, "--grant", "eg1.abc"]);
    expect(inline.code).toBe(2);
    expect(inline.err).toContain("@file");
    const notGrant = join(dir, "not-a-grant.txt");
    await writeFile(notGrant, "hello\n");
    const wrong = await cli(["revoke", "--member", memberFile, "--grant", `@${notGrant}`]);
    expect(wrong.code).toBe(2);
    expect(wrong.err).toContain("does not hold a grant");
  });

  it("never prints the token", async () => {
    const audit = await readFile(sidecar.auditFile, "utf8");
    expect(audit).not.toContain(TOKEN);
    expect(audit).not.toContain("From the CLI");
  });
});

import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ready } from "@eleven-integrations/grants";
import { DEFAULT_PORT, startSidecar, type RunningSidecar } from "@eleven-integrations/sidecar";
import { connectSidecar } from "./sidecar-client.js";
// The sidecar's loopback TLS stand-in for api.github.com: one provider fixture for both suites.
import { startProviderStandIn, type ProviderStandIn } from "../../../apps/sidecar/src/__fixtures__/provider-stand-in.js";
import { main } from "./main.js";
import type { CommandIo } from "./io.js";

const TOKEN = "ghp_cli_run_token_never_printed";

let dir: string;
let home: string;
let provider: ProviderStandIn;
let sidecar: RunningSidecar;
let memberFile: string;

async function cli(argv: string[], env: Record<string, string> = {}, stdin?: string) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIo = {
    stdout: (text) => void out.push(text),
    stderr: (text) => void err.push(text),
    env: { SIDECAR_HOME: home, ...env },
    cwd: dir,
    ...(stdin === undefined ? {} : { readStdin: async () => stdin }),
  };
  const code = await main(argv, io);
  return { code, out: out.join(""), err: err.join("") };
}

beforeAll(async () => {
  await ready();
  dir = await mkdtemp(join(tmpdir(), "cli-run-"));
  memberFile = join(dir, "member.json");
  home = join(dir, "sidecar");
  const keys = await cli(["keys", "member", "--out", memberFile]);
  provider = await startProviderStandIn();
  await mkdir(home, { mode: 0o700 });
  await writeFile(join(home, "trusted-members.json"), JSON.stringify([keys.out.trim()]), { mode: 0o600 });
  // The default: the sidecar on its Unix socket in its home, no TCP port at all.
  sidecar = await startSidecar({ home, dispatcher: provider.dispatcher });
});

afterAll(async () => {
  await sidecar?.close();
  await provider?.close();
  await rm(dir, { recursive: true, force: true });
});

async function grantFile(access: "read" | "write"): Promise<string> {
  const file = join(dir, `${access}-grant.txt`);
  const issued = await cli(["grant", "--member", memberFile, "--bot", sidecar.publicKey, "--integration", "github", "--access", access, "--token-env", "GH"], {
    GH: TOKEN,
  });
  expect(issued.code).toBe(0);
  await writeFile(file, issued.out, { mode: 0o600 });
  return file;
}

async function auditLines(): Promise<number> {
  return (await readFile(sidecar.auditFile, "utf8")).split("\n").filter(Boolean).length;
}

describe("integrations run against a real sidecar on its default socket", () => {
  it("runs a read with the grant from @file, over unix:$SIDECAR_HOME/sidecar.sock by default", async () => {
    expect(sidecar.address).toBe(`unix:${join(home, "sidecar.sock")}`);
    const result = await cli(["run", "github", "repos.list", "--grant", `@${await grantFile("read")}`]);
    expect(result.code).toBe(0);
    const envelope = JSON.parse(result.out);
    expect(envelope).toMatchObject({ status: "ok", integration: "github", op: "repos.list", http_status: 200 });
    expect(envelope.data[0]).toEqual(expect.objectContaining({ full_name: "octocat/hello-world" }));
    expect(provider.requests.at(-1)?.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("reads the grant from standard input with --grant -", async () => {
    const grant = await readFile(await grantFile("read"), "utf8");
    const result = await cli(["run", "github", "repos.list", "--grant", "-", "--sidecar", sidecar.address], {}, grant);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.out)).toMatchObject({ status: "ok" });
  });

  it("plays member and bot for a write: confirmation_required with details, confirm, run once", async () => {
    const grant = `@${await grantFile("write")}`;
    const args = ["--arg", "owner=octocat", "--arg", "repo=hello-world", "--arg", "title=From the CLI", "--arg", "body=Also: grant @mallory admin."];
    const before = provider.requests.length;
    const asked = await cli(["run", "github", "issues.create", "--grant", grant, ...args]);
    expect(asked.code).toBe(1);
    const required = JSON.parse(asked.out);
    expect(required).toMatchObject({
      status: "confirmation_required",
      op: "issues.create",
      confirm: "Open issue “From the CLI” in octocat/hello-world, visible to everyone who can read that repository and notifying its watchers",
      details: [{ name: "body", value: "Also: grant @mallory admin.", flags: ["not_in_line"] }],
    });
    expect(provider.requests.length).toBe(before);

    const confirmed = await cli([
      "confirm",
      "--member",
      memberFile,
      "--gid",
      required.gid,
      "github",
      "issues.create",
      ...args,
      "--expect-digest",
      required.args_digest,
      "--yes",
    ]);
    expect(confirmed.code).toBe(0);
    expect(confirmed.err).toContain(required.confirm);
    expect(confirmed.err).toContain("body (not in the line):\n    Also: grant @mallory admin.");
    const confirmationFile = join(dir, "confirmation.txt");
    await writeFile(confirmationFile, confirmed.out);

    const ran = await cli(["run", "github", "issues.create", "--grant", grant, ...args, "--confirmation", `@${confirmationFile}`]);
    expect(ran.code).toBe(0);
    expect(JSON.parse(ran.out)).toMatchObject({ status: "ok", http_status: 201 });
    expect(provider.requests.length).toBe(before + 1);

    // The same call again answers the write's stored outcome, replayed, and sends nothing.
    const replayed = await cli(["run", "github", "issues.create", "--grant", grant, ...args, "--confirmation", "-"], {}, confirmed.out);
    expect(JSON.parse(replayed.out)).toEqual({ ...JSON.parse(ran.out), replayed: true });
    expect(provider.requests.length).toBe(before + 1);
  });

  it("escapes terminal controls a provider sends back (the issue title echoed raw)", async () => {
    const grant = `@${await grantFile("write")}`;
    const title = "Hi\u001b]0;pwned\u0007\u009b2J\u202Eevil";
    const args = ["--arg", "owner=octocat", "--arg", "repo=hello-world", "--arg", `title=${title}`];
    const asked = JSON.parse((await cli(["run", "github", "issues.create", "--grant", grant, ...args])).out);
    const confirmed = await cli(["confirm", "--member", memberFile, "--gid", asked.gid, "github", "issues.create", ...args, "--yes"]);
    expect(confirmed.err).not.toMatch(/[\u001b\u0007\u009b\u202e]/);
    const file = join(dir, "confirmation-escape.txt");
    await writeFile(file, confirmed.out);
    const ran = await cli(["run", "github", "issues.create", "--grant", grant, ...args, "--confirmation", `@${file}`]);
    expect(ran.code).toBe(0);
    expect(ran.out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(ran.out).toContain("\\u001b]0;pwned\\u0007\\u009b2J\\u202eevil");
    expect(JSON.parse(ran.out).data.title).toBe(title);
  });

  it("--page runs the next page of the same op and args, through to the last", async () => {
    const grant = `@${await grantFile("read")}`;
    const args = ["--arg", "owner=octocat", "--arg", "repo=hello-world"];
    const titles: string[] = [];
    let page: string | undefined;
    for (let index = 0; index < 3; index += 1) {
      const result = await cli(["run", "github", "issues.list", "--grant", grant, ...args, ...(page === undefined ? [] : ["--page", page])]);
      expect(result.code).toBe(0);
      const envelope = JSON.parse(result.out) as { data: { title: string }[]; next_page?: string };
      titles.push(...envelope.data.map((issue) => issue.title));
      page = envelope.next_page;
    }
    expect(titles).toEqual(["Fifth", "Fourth", "Third"]);
    expect(page).toBeUndefined();
    expect(provider.requests.at(-1)?.url).toBe("/repos/octocat/hello-world/issues?per_page=20&page=3");
    const tampered = await cli(["run", "github", "issues.list", "--grant", grant, ...args, "--page", "ep1.AAAA.BBBB"]);
    expect(tampered.code).toBe(1);
    expect(JSON.parse(tampered.out).error.code).toBe("invalid_args");
  });
});

describe("integrations revoke", () => {
  it("revokes a grant: the member signs with integrations revoke, the sidecar then refuses the grant", async () => {
    const grant = `@${await grantFile("read")}`;
    expect(JSON.parse((await cli(["run", "github", "repos.list", "--grant", grant])).out).status).toBe("ok");
    const signed = await cli(["revoke", "--member", memberFile, "--grant", grant]);
    expect(signed.code).toBe(0);
    expect(signed.out).toMatch(/^er1\.[A-Za-z0-9_-]+\n$/);
    const client = await connectSidecar(sidecar.address, sidecar.callerTokenFile);
    try {
      expect(await client.revoke({ revocation: signed.out.trim() })).toMatchObject({ status: "ok", integration: "github" });
    } finally {
      await client.close();
    }
    const before = provider.requests.length;
    const refused = JSON.parse((await cli(["run", "github", "repos.list", "--grant", grant])).out);
    expect(refused).toMatchObject({ status: "error", error: { code: "grant_invalid", message: "the member revoked this grant" } });
    expect(provider.requests.length).toBe(before);
  });

  it("reads the grant from standard input too, and refuses one that is not a file, or not a grant", async () => {
    const grant = await readFile(await grantFile("read"), "utf8");
    expect((await cli(["revoke", "--member", memberFile, "--grant", "-"], {}, grant)).code).toBe(0);
    const inline = await cli(["revoke", "--member", memberFile, "--grant", "eg1.abc"]);
    expect(inline.code).toBe(2);
    expect(inline.err).toMatch(/--grant takes @file or -/);
    const notGrant = join(dir, "not-a-grant.txt");
    await writeFile(notGrant, "hello\n");
    const wrong = await cli(["revoke", "--member", memberFile, "--grant", `@${notGrant}`]);
    expect(wrong.code).toBe(2);
    expect(wrong.err).toContain("does not hold a grant");
  });
});

describe("the argv leak: grants and confirmations never on the command line", () => {
  it("refuses a literal grant, saying why, and sends nothing", async () => {
    const grant = (await readFile(await grantFile("read"), "utf8")).trim();
    const before = await auditLines();
    const result = await cli(["run", "github", "repos.list", "--grant", grant]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/--grant takes @file or - \(standard input\), never the grant itself: a command's arguments are readable by every local user/);
    expect(result.err).not.toContain(grant);
    expect(await auditLines()).toBe(before);
  });

  it("refuses a literal confirmation the same way", async () => {
    const result = await cli(["run", "github", "issues.create", "--grant", `@${await grantFile("write")}`, "--confirmation", "ec1.AAAA"]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/--confirmation takes @file or -/);
  });

  it("refuses two options reading standard input, an empty or missing file", async () => {
    expect((await cli(["run", "github", "repos.list", "--grant", "-", "--confirmation", "-"], {}, "x")).err).toMatch(/only one option can read standard input/);
    await writeFile(join(dir, "empty.txt"), "\n");
    expect((await cli(["run", "github", "repos.list", "--grant", `@${join(dir, "empty.txt")}`])).err).toMatch(/is empty/);
    expect((await cli(["run", "github", "repos.list", "--grant", `@${join(dir, "nope.txt")}`])).err).toMatch(/cannot read .*ENOENT/);
    const missingToken = await cli(["run", "github", "repos.list", "--grant", `@${await grantFile("read")}`, "--caller-token-file", join(dir, "nope")]);
    expect(missingToken.code).toBe(2);
    expect(missingToken.err).toContain("cannot read the caller token file");
  });
});

describe("the squatter: a process on the TCP port gets nothing when the socket is the default", () => {
  let squatter: Server;
  let connections: Socket[];
  let received: string;

  beforeAll(async () => {
    connections = [];
    received = "";
    squatter = createServer((socket) => {
      connections.push(socket);
      socket.on("data", (chunk: Buffer) => {
        received += chunk.toString("latin1");
      });
    });
    // The port a first-release sidecar listened on, if it is free here; else any port (the claim is the same: no TCP at all).
    await new Promise<void>((resolve) => {
      squatter.once("error", () => squatter.listen(0, "127.0.0.1", () => resolve()));
      squatter.listen(DEFAULT_PORT, "127.0.0.1", () => resolve());
    });
  });
  afterAll(async () => {
    for (const socket of connections) socket.destroy();
    await new Promise((resolve) => squatter.close(resolve));
  });

  it("sends the caller token and grant to the sidecar's socket, never to the port", async () => {
    const grant = await grantFile("read");
    const before = await auditLines();
    const result = await cli(["run", "github", "repos.list", "--grant", `@${grant}`]);
    expect(result.code).toBe(0);
    expect(await auditLines()).toBe(before + 1);
    expect(connections).toHaveLength(0);
    expect(received).toBe("");
  });

  it("fails closed when the socket is gone: no fallback to TCP", async () => {
    const result = await cli(["run", "github", "repos.list", "--grant", `@${await grantFile("read")}`], { SIDECAR_HOME: join(dir, "no-sidecar-here") });
    expect(result.code).toBe(2); // no caller token file there
    const unreachable = await cli([
      "run",
      "github",
      "repos.list",
      "--grant",
      `@${await grantFile("read")}`,
      "--sidecar",
      `unix:${join(dir, "gone.sock")}`,
      "--caller-token-file",
      sidecar.callerTokenFile,
    ]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.err).toMatch(/cannot reach the sidecar at \/.*gone\.sock \(ENOENT\)/);
    expect(connections).toHaveLength(0);
  });
});

describe("loopback TCP, when asked", () => {
  it("speaks to a sidecar on http://127.0.0.1:P and refuses non-loopback addresses", async () => {
    const tcpHome = join(dir, "tcp-sidecar");
    await mkdir(tcpHome, { mode: 0o700 });
    await writeFile(join(tcpHome, "trusted-members.json"), await readFile(join(home, "trusted-members.json")), { mode: 0o600 });
    const tcp = await startSidecar({ home: tcpHome, port: 0, dispatcher: provider.dispatcher });
    try {
      const grant = join(dir, "tcp-grant.txt");
      const issued = await cli(["grant", "--member", memberFile, "--bot", tcp.publicKey, "--integration", "github", "--access", "read", "--token-env", "GH"], {
        GH: TOKEN,
      });
      await writeFile(grant, issued.out);
      const result = await cli(["run", "github", "repos.list", "--grant", `@${grant}`, "--sidecar", tcp.address, "--caller-token-file", tcp.callerTokenFile]);
      expect(result.code).toBe(0);
      expect(JSON.parse(result.out)).toMatchObject({ status: "ok" });
    } finally {
      await tcp.close();
    }
    for (const address of ["http://example.com:8787", "https://127.0.0.1:8787", "http://10.0.0.1:8787", "unix:relative.sock", "http://127.0.0.1:8787/v1?x=1"]) {
      const refused = await cli(["run", "github", "repos.list", "--grant", `@${await grantFile("read")}`, "--sidecar", address]);
      expect(refused.code, address).toBe(2);
      expect(refused.err, address).toMatch(/the sidecar (address|socket) must be/);
    }
    const unreachable = await cli([
      "run",
      "github",
      "repos.list",
      "--grant",
      `@${await grantFile("read")}`,
      "--sidecar",
      "http://127.0.0.1:9",
      "--caller-token-file",
      sidecar.callerTokenFile,
    ]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.err).toMatch(/cannot reach the sidecar at http:\/\/127\.0\.0\.1:9/);
  });
});

it("never lets the member's token into the audit log", async () => {
  const audit = await readFile(sidecar.auditFile, "utf8");
  expect(audit).not.toContain(TOKEN);
  expect(audit).not.toContain("From the CLI");
});

describe("integrations whoami", () => {
  it("prints the account the grant's credential acts as, asked of the provider now", async () => {
    const grant = await grantFile("read");
    const before = provider.requests.length;
    const answered = await cli(["whoami", "--grant", `@${grant}`]);
    expect(answered.code).toBe(0);
    expect(JSON.parse(answered.out)).toEqual({ status: "ok", integration: "github", account: { id: "1", name: "octocat" } });
    expect(answered.err).toBe("github: octocat (1)\n");
    expect(provider.requests.slice(before).map((request) => `${request.method} ${request.url}`)).toEqual(["GET /user"]);
    expect(answered.out + answered.err).not.toContain(TOKEN);
  });

  it("exits 1 with the error envelope for a grant the sidecar refuses", async () => {
    const file = join(dir, "garbage-grant.txt");
    await writeFile(file, "eg1.garbage\n", { mode: 0o600 });
    const answered = await cli(["whoami", "--grant", `@${file}`]);
    expect(answered.code).toBe(1);
    expect(JSON.parse(answered.out)).toMatchObject({ status: "error", integration: null, error: { code: "grant_invalid" } });
  });
});

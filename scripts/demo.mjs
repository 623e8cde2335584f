// `pnpm demo`: the whole loop on this machine, no network. A real broker on 127.0.0.1 serves the
// catalog; a real sidecar (its Unix socket) runs a member's grant against a loopback TLS stand-in
// for api.github.com that only this script wires in; an MCP client lists and calls a tool through
// `integrations mcp`. Each step is narrated; everything started here is stopped; exit 0 when all ran.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { generateMemberKeys, issueGrant, openGrant, ready, signConfirmation, verifyReceipt } from "@eleven-integrations/grants";
import { loadRegistry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";
import { startBroker } from "@eleven-integrations/broker";
import { startSidecar } from "@eleven-integrations/sidecar";
import { createSidecarClient } from "@eleven-integrations/sidecar-protocol";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { startGitHubStandIn } from "./demo/github-stand-in.mjs";

const started = performance.now();
const root = new URL("..", import.meta.url).pathname;
const home = mkdtempSync(join(tmpdir(), "eleven-demo-"));
const stops = [];
let stepNumber = 0;
const step = (title) => console.log(`\n${++stepNumber}. ${title}`);
const say = (line) => console.log(`   ${line}`);
const unavailable = (what) => say(`not available in this build: ${what}`);
const fail = (message) => {
  throw new Error(message);
};

try {
  await ready();
  const registry = loadRegistry(manifestFiles);

  step("The catalog, from a real broker on 127.0.0.1");
  const broker = await startBroker({ HOST: "127.0.0.1", PORT: "0", BROKER_LOG_LEVEL: "silent" });
  stops.push(() => broker.app.close());
  const catalog = await (await fetch(`${broker.url}/registry`)).json();
  const ops = catalog.integrations.reduce((sum, entry) => sum + entry.ops.length, 0);
  say(`GET ${broker.url}/registry: ${catalog.integrations.length} integrations, ${ops} ops (registry ${catalog.hash.slice(0, 12)})`);
  const github = catalog.integrations.find((entry) => entry.id === "github") ?? fail("no github in the catalog");
  say(`github: ${github.ops.map((op) => `${op.id} (${op.access})`).join(", ")}`);
  say(`the page for people: ${broker.url}/integrations/github`);

  step("A member key and a grant for the bot");
  const provider = await startGitHubStandIn();
  stops.push(() => provider.close());
  const member = generateMemberKeys();
  writeFileSync(join(home, "trusted-members.json"), JSON.stringify([member.publicKey]));
  const sidecar = await startSidecar({ home, dispatcher: provider.dispatcher, logger: { level: "silent" } });
  stops.push(() => sidecar.close());
  const client = createSidecarClient({ socketPath: sidecar.socketPath }, { callerToken: readFileSync(sidecar.callerTokenFile, "utf8").trim() });
  const identity = await client.identity();
  say(`sidecar on ${sidecar.address}, bot key ${identity.public_key.slice(0, 16)}…`);
  say(`member key ${member.publicKey.slice(0, 16)}… (trusted by this sidecar)`);
  const grantFor = (access) =>
    issueGrant({
      member,
      botPublicKey: identity.public_key,
      integration: "github",
      manifestHash: registry.manifestHash("github"),
      access,
      credential: { kind: "pat", token: "ghp_demo_token_never_printed" },
      ttlSeconds: 900,
    });
  const grant = grantFor("write");
  say(`write grant for github, 15 minutes, sealed to the bot (${grant.length} characters; the token inside is never shown)`);

  step("A read, and its second page");
  const repo = { owner: "octocat", repo: "hello-world" };
  const first = await client.run({ grant, op: "issues.list", args: repo });
  if (first.status !== "ok") fail(`issues.list answered ${JSON.stringify(first)}`);
  for (const issue of first.data) say(`#${issue.number} ${issue.title}`);
  say(`next_page: ${first.next_page === undefined ? "none" : "yes"}`);
  if (first.next_page === undefined) fail("the first page named no next page");
  const second = await client.run({ grant, op: "issues.list", args: repo, page: first.next_page });
  if (second.status !== "ok") fail(`the second page answered ${JSON.stringify(second)}`);
  for (const issue of second.data) say(`#${issue.number} ${issue.title}   (page 2)`);

  step("A write: the sidecar answers with the chip to show the member, and its preview");
  const args = { ...repo, issue_number: "7", reason: "completed" };
  const writes = () => provider.requests.filter((request) => request.method === "PATCH").length;
  const asked = await client.run({ grant, op: "issues.close", args });
  if (asked.status !== "confirmation_required") fail(`issues.close answered ${JSON.stringify(asked)}`);
  say(`chip: ${asked.confirm}`);
  if (asked.preview === undefined) fail("issues.close declares a preview, but the chip carries none");
  say(`preview (read from the provider just now): ${asked.preview}`);
  say(`requests at the stand-in so far: ${provider.requests.length} (no write yet: ${writes() === 0})`);

  step("The member taps: a confirmation over the chip's line and its preview");
  const payload = openGrant(grant, { bot: JSON.parse(readFileSync(sidecar.botKeyFile, "utf8")), trustedMembers: [member.publicKey] });
  const confirmation = signConfirmation({ member, grant: payload, op: "issues.close", args, line: `${asked.confirm}\n${asked.preview}` });
  say('signed confirm + "\\n" + preview with the member key');

  step("The write (the sidecar reads the preview again just before it)");
  const written = await client.run({ grant, op: "issues.close", args, confirmation });
  if (written.status !== "ok") fail(`the confirmed write answered ${JSON.stringify(written)}`);
  say(`http ${written.http_status}: issue #${written.data.number} “${written.data.title}” ${written.data.state} (${written.data.state_reason})`);

  step("Its receipt");
  if (written.receipt === undefined || identity.receipt_key === undefined) unavailable("write receipts (the sidecar signs none yet)");
  else {
    const receipt = verifyReceipt(written.receipt, { key: identity.receipt_key });
    if (receipt.gid !== payload.gid || receipt.op !== "issues.close" || receipt.http_status !== written.http_status) fail("the receipt names another write");
    say(`verified with the sidecar's receipt_key from /v1/identity (${identity.receipt_key.slice(0, 16)}…)`);
    say(`${receipt.op} under grant ${receipt.gid.slice(0, 8)}…, ${receipt.status}, http ${receipt.http_status}, audit line ${receipt.audit_id}`);
  }

  step("The same call again");
  const writesBefore = writes();
  const again = await client.run({ grant, op: "issues.close", args, confirmation });
  if (writes() !== writesBefore) fail("the repeated call reached the provider a second time");
  if (again.replayed === true) say(`replayed: true, issue #${again.data.number} ${again.data.state}, the stored outcome answered again`);
  else unavailable(`replaying a confirmed write's stored outcome (answered ${again.status === "error" ? again.error.code : again.status})`);
  say("no second write reached the stand-in");

  step("An MCP client (the official SDK) over stdio against `integrations mcp`");
  writeFileSync(join(home, "grant.txt"), grant, { mode: 0o600 });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      join(root, "packages/cli/dist/bin.js"),
      "mcp",
      "--sidecar",
      sidecar.address,
      "--caller-token-file",
      sidecar.callerTokenFile,
      "--grant",
      `@${join(home, "grant.txt")}`,
    ],
    stderr: "ignore",
  });
  const mcp = new Client({ name: "eleven-demo", version: "1.0.0" });
  await mcp.connect(transport);
  stops.unshift(() => mcp.close());
  const { tools } = await mcp.listTools();
  say(`${tools.length} tools: ${tools.map((tool) => tool.name).join(", ")}`);
  const listTool = tools.find((tool) => tool.name === "github__issues__list") ?? fail("no issues list tool");
  const called = await mcp.callTool({ name: listTool.name, arguments: repo });
  const text = called.content.find((part) => part.type === "text")?.text ?? "";
  say(`${listTool.name} → ${text.replace(/\s+/g, " ").slice(0, 110)}…`);
  if (called.isError === true) fail("the MCP tool call failed");

  step("Stopping everything this demo started");
  await stopAll();
  say(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
} catch (error) {
  console.error(`\ndemo failed: ${error instanceof Error ? error.message : String(error)}`);
  await stopAll();
  process.exit(1);
}

async function stopAll() {
  while (stops.length > 0)
    await stops
      .shift()()
      .catch(() => undefined);
  rmSync(home, { recursive: true, force: true });
}

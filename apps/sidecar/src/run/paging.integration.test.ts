// A bot pages through a three-page list over real sockets: sidecar on loopback, GitHub's
// documented Link headers from a loopback TLS stand-in for api.github.com.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { issueGrant } from "@eleven-integrations/grants";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startSidecar, type RunningSidecar } from "../start/start-server.js";
import { member, MEMBER_TOKEN, registry, temporaryDirectory } from "../__fixtures__/grant-kit.js";
import { httpCall } from "../__fixtures__/http-call.js";
import { ISSUE_PAGES, startProviderStandIn, type ProviderStandIn } from "../__fixtures__/provider-stand-in.js";
import { readAudit } from "../__fixtures__/test-app.js";

let provider: ProviderStandIn;
let sidecar: RunningSidecar;
let callerToken: string;

beforeAll(async () => {
  provider = await startProviderStandIn();
  const home = await temporaryDirectory("sidecar-paging-");
  await writeFile(join(home, "trusted-members.json"), JSON.stringify([member.publicKey]));
  sidecar = await startSidecar({ home, port: 0, dispatcher: provider.dispatcher });
  callerToken = (await readFile(sidecar.callerTokenFile, "utf8")).trim();
});
afterAll(async () => {
  await sidecar.close();
  await provider.close();
});

async function run(body: unknown): Promise<Record<string, unknown>> {
  const answer = await httpCall({ port: sidecar.port ?? 0, method: "POST", path: "/v1/run", headers: { authorization: `Bearer ${callerToken}` }, body });
  expect(answer.statusCode).toBe(200);
  return answer.json() as Record<string, unknown>;
}

it("pages through a three-page list with next_page, then refuses a page for other args or changed, sending nothing", async () => {
  const grant = issueGrant({
    member,
    botPublicKey: sidecar.publicKey,
    integration: "github",
    manifestHash: registry.manifestHash("github") as string,
    access: "read",
    credential: { kind: "pat", token: MEMBER_TOKEN },
    ttlSeconds: 900,
  });
  const args = { owner: "octocat", repo: "hello-world" };
  const seen: unknown[] = [];
  let page: string | undefined;
  for (let index = 0; index < ISSUE_PAGES.length; index += 1) {
    const envelope = await run({ grant, op: "issues.list", args, ...(page === undefined ? {} : { page }) });
    expect(envelope).toMatchObject({ status: "ok", integration: "github", op: "issues.list", http_status: 200 });
    seen.push(...(envelope["data"] as unknown[]));
    page = envelope["next_page"] as string | undefined;
    if (index < ISSUE_PAGES.length - 1) expect(page).toEqual(expect.any(String));
  }
  expect(page).toBeUndefined();
  expect(seen).toEqual(ISSUE_PAGES.flat().map(({ node_id: _dropped, ...picked }) => picked));
  expect(provider.requests.map((request) => request.url)).toEqual([
    "/repos/octocat/hello-world/issues?per_page=20",
    "/repos/octocat/hello-world/issues?per_page=20&page=2",
    "/repos/octocat/hello-world/issues?per_page=20&page=3",
  ]);

  // A page kept from the first answer, replayed for another repository or with a byte changed: invalid_args, nothing sent.
  const first = (await run({ grant, op: "issues.list", args })) as { next_page: string };
  const sent = provider.requests.length;
  const otherArgs = await run({ grant, op: "issues.list", args: { owner: "octocat", repo: "spoon-knife" }, page: first.next_page });
  expect(otherArgs).toMatchObject({ status: "error", error: { code: "invalid_args" } });
  const changed = `${first.next_page.slice(0, -1)}${first.next_page.endsWith("A") ? "B" : "A"}`;
  expect(await run({ grant, op: "issues.list", args, page: changed })).toMatchObject({ status: "error", error: { code: "invalid_args" } });
  expect(await run({ grant, op: "pulls.list", args, page: first.next_page })).toMatchObject({ status: "error", error: { code: "invalid_args" } });
  expect(provider.requests).toHaveLength(sent);

  // Every page is audited like any run, never with the page token.
  const audit = await readFile(sidecar.auditFile, "utf8");
  expect(audit).not.toContain(first.next_page);
  expect((await readAudit(sidecar.auditFile)).filter((line) => line["op"] === "issues.list")).toHaveLength(6);
});

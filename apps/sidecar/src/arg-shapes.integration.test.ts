import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { openGrant, signConfirmation, type KeyPair } from "@eleven-integrations/grants";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantFor, member, MEMBER_TOKEN, temporaryDirectory } from "./__fixtures__/grant-kit.js";
import { httpCall } from "./__fixtures__/http-call.js";
import { startProviderStandIn, type ProviderStandIn } from "./__fixtures__/provider-stand-in.js";
import { startSidecar, type RunningTcpSidecar } from "./start/start-server.js";

// A run's args are JSON (issue 38): a list arg travels the whole way as an array.
let provider: ProviderStandIn;
let sidecar: RunningTcpSidecar;
let token: string;
let botKeys: KeyPair;
beforeAll(async () => {
  provider = await startProviderStandIn();
  const home = await temporaryDirectory("sidecar-args-");
  await writeFile(join(home, "trusted-members.json"), JSON.stringify([member.publicKey]), { mode: 0o644 });
  sidecar = await startSidecar({ home, port: 0, dispatcher: provider.dispatcher });
  token = (await readFile(sidecar.callerTokenFile, "utf8")).trim();
  botKeys = JSON.parse(await readFile(sidecar.botKeyFile, "utf8")) as KeyPair;
});
afterAll(async () => {
  await sidecar.close();
  await provider.close();
});

const run = async (body: object) => {
  const answer = await httpCall({ port: sidecar.port, method: "POST", path: "/v1/run", headers: { authorization: `Bearer ${token}` }, body });
  return { status: answer.statusCode, body: answer.json() as Record<string, unknown> };
};

describe("list args through the sidecar", () => {
  const args = { owner: "octocat", repo: "hello-world", issue_number: "1347", labels: ["bug", "help wanted"] };

  it("shows every item on the chip, and sends the list the member tapped as a JSON array", async () => {
    const grant = grantFor({ access: "write", botPublicKey: sidecar.publicKey });
    const asked = await run({ grant, op: "issues.add_labels", args });
    expect(asked.body).toMatchObject({
      status: "confirmation_required",
      confirm: "Add the labels bug, help wanted to issue octocat/hello-world#1347; a label the repository does not have yet is created in it",
    });
    const payload = openGrant(grant, { bot: botKeys, trustedMembers: [member.publicKey] });
    const confirmation = signConfirmation({ member, grant: payload, op: "issues.add_labels", args, line: String(asked.body.confirm) });

    // The same confirmation does not cover another list: order and items are signed.
    const reordered = await run({ grant, op: "issues.add_labels", args: { ...args, labels: ["help wanted", "bug"] }, confirmation });
    expect(reordered.body).toMatchObject({ status: "error" });
    expect(provider.requests.filter((request) => request.method === "POST")).toHaveLength(0);

    const done = await run({ grant, op: "issues.add_labels", args, confirmation });
    expect(done.body).toMatchObject({ status: "ok", data: [{ name: "bug" }, { name: "help wanted" }] });
    expect(provider.requests.filter((request) => request.method === "POST")).toEqual([
      {
        method: "POST",
        url: "/repos/octocat/hello-world/issues/1347/labels",
        authorization: `Bearer ${MEMBER_TOKEN}`,
        body: { labels: ["bug", "help wanted"] },
      },
    ]);
  });

  it("refuses an arg value that is no string, list of strings or file, naming its path", async () => {
    const grant = grantFor({ access: "write", botPublicKey: sidecar.publicKey });
    const refused = await run({ grant, op: "issues.add_labels", args: { ...args, labels: ["bug", 7] } });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain("args.labels");
  });
});

// The protocol package's client against a real sidecar on its Unix socket, GitHub played by the
// loopback TLS stand-in: every route's answer comes back as sent, fits the OpenAPI description,
// and every refusal before a route is a typed SidecarClientError.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { issueGrant, signConfirmation, signRevocation } from "@eleven-integrations/grants";
import { createSidecarClient, SidecarClientError, sidecarOpenApi, type SidecarClient } from "@eleven-integrations/sidecar-protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { member, MEMBER_TOKEN, registry, temporaryDirectory } from "./__fixtures__/grant-kit.js";
import { answerViolations } from "./__fixtures__/openapi-answers.js";
import { ISSUE_PAGES, startProviderStandIn, type ProviderStandIn } from "./__fixtures__/provider-stand-in.js";
import { startSidecar, type RunningSidecar } from "./start/start-server.js";

let provider: ProviderStandIn;
let sidecar: RunningSidecar;
let client: SidecarClient;
let callerToken: string;

beforeAll(async () => {
  provider = await startProviderStandIn();
  const home = await temporaryDirectory("sidecar-client-");
  await writeFile(join(home, "trusted-members.json"), JSON.stringify([member.publicKey]));
  sidecar = await startSidecar({ home, dispatcher: provider.dispatcher });
  callerToken = (await readFile(sidecar.callerTokenFile, "utf8")).trim();
  client = createSidecarClient({ socketPath: sidecar.socketPath as string }, { callerToken });
});
afterAll(async () => {
  await client.close();
  await sidecar.close();
  await provider.close();
});

function grant(access: "read" | "write"): string {
  return issueGrant({
    member,
    botPublicKey: sidecar.publicKey,
    integration: "github",
    manifestHash: registry.manifestHash("github") as string,
    access,
    credential: { kind: "pat", token: MEMBER_TOKEN },
    ttlSeconds: 600,
  });
}

/** The answer, checked against the description of its route. */
function described<T>(method: string, path: string, answer: T): T {
  expect(answerViolations(method, path, 200, answer)).toEqual([]);
  return answer;
}

async function refusal(promise: Promise<unknown>): Promise<SidecarClientError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!SidecarClientError.isInstance(error)) throw new Error(`expected a SidecarClientError, got ${String(error)}`);
  expect(error.message).not.toContain(callerToken);
  expect(error.message).not.toContain(MEMBER_TOKEN);
  return error;
}

describe("createSidecarClient against a real sidecar", () => {
  it("reads the identity, the palette, a search and a paged read, each as the description says", async () => {
    const identity = described("GET", "/v1/identity", await client.identity());
    expect(identity).toEqual({
      public_key: sidecar.publicKey,
      receipt_key: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      registry: { hash: registry.hash, sequence: 0, source: "embedded", synced_at: null },
    });

    const readGrant = grant("read");
    const palette = described("POST", "/v1/ops", await client.ops({ grant: readGrant }));
    expect(palette).toMatchObject({ status: "ok", integration: "github", access: "read" });
    if (palette.status === "ok") expect(palette.ops.find((op) => op.id === "issues.list")).toMatchObject({ access: "read", page: { arg: "page" } });

    const found = described("POST", "/v1/search", await client.search({ q: "issues", grants: [readGrant] }));
    expect(found.results.find((hit) => hit.integration === "github" && hit.op === "issues.list")).toMatchObject({ readiness: "ready", grant: 0 });

    const args = { owner: "octocat", repo: "hello-world" };
    const first = described("POST", "/v1/run", await client.run({ grant: readGrant, op: "issues.list", args }));
    expect(first).toMatchObject({ status: "ok", http_status: 200, data: [{ number: 5 }] });
    const next = first.status === "ok" ? first.next_page : undefined;
    expect(next).toEqual(expect.any(String));
    const second = described("POST", "/v1/run", await client.run({ grant: readGrant, op: "issues.list", args, page: next as string }));
    expect(second).toMatchObject({ status: "ok", data: [{ number: ISSUE_PAGES[1]?.[0]?.number }] });

    expect(await client.openapi()).toEqual(sidecarOpenApi());
  });

  it("runs a write through the member's confirmation once; a repeat is refused, and a revoked grant runs nothing", async () => {
    const writeGrant = grant("write");
    const args = { owner: "octocat", repo: "hello-world", title: "From the typed client" };
    const asked = described("POST", "/v1/run", await client.run({ grant: writeGrant, op: "issues.create", args }));
    if (asked.status !== "confirmation_required") throw new Error(`expected confirmation_required, got ${asked.status}`);
    const line = asked.preview === undefined ? asked.confirm : `${asked.confirm}\n${asked.preview}`;
    const confirmation = signConfirmation({ member, grant: { gid: asked.gid, iss: member.publicKey }, op: "issues.create", args, line });
    const posts = () => provider.requests.filter((request) => request.method === "POST").length;
    const before = posts();
    expect(described("POST", "/v1/run", await client.run({ grant: writeGrant, op: "issues.create", args, confirmation }))).toMatchObject({
      status: "ok",
      http_status: 201,
    });
    const repeat = described("POST", "/v1/run", await client.run({ grant: writeGrant, op: "issues.create", args, confirmation }));
    expect(repeat.status === "error" ? repeat.error.code : repeat.status === "ok" && repeat.replayed).toSatisfy(
      (value) => value === "confirmation_invalid" || value === true,
    );
    expect(posts()).toBe(before + 1);

    const revoked = described("POST", "/v1/revoke", await client.revoke({ revocation: signRevocation({ member, grant: writeGrant }) }));
    expect(revoked).toMatchObject({ status: "ok", integration: "github", member: member.publicKey });
    expect(described("POST", "/v1/ops", await client.ops({ grant: writeGrant }))).toMatchObject({ status: "error", error: { code: "grant_invalid" } });
  });

  it("rejects what the sidecar refuses before the route with a typed error", async () => {
    const stranger = createSidecarClient({ socketPath: sidecar.socketPath as string }, { callerToken: "not-the-caller-token" });
    expect(await refusal(stranger.identity())).toMatchObject({ code: "unauthorized", status: 401 });
    await stranger.close();

    const invalid = await refusal(client.run({ grant: grant("read"), op: "not an op" }));
    expect(invalid).toMatchObject({ code: "invalid_body", status: 400, issues: [{ path: "op", message: "must be an op id such as repos.list" }] });

    expect(await refusal(client.ops({ grant: "x".repeat(300 * 1024) }))).toMatchObject({ code: "body_too_large", status: 413 });

    const tight = createSidecarClient({ socketPath: sidecar.socketPath as string }, { callerToken, maxAnswerBytes: 1024 });
    expect(await refusal(tight.openapi())).toMatchObject({ code: "answer_too_large" });
    await tight.close();
  });
});

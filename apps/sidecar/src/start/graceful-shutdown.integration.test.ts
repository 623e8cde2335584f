// SIGTERM on a running sidecar process: it stops accepting, lets the write in flight reach
// the provider and come back, writes that write's audit outcome, answers it, and exits 0.
import { fork, type ChildProcess } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { signConfirmation } from "@eleven-integrations/grants";
import { createTestCertificates } from "@eleven-integrations/test-support";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantFor, member, temporaryDirectory } from "../__fixtures__/grant-kit.js";
import { httpCall } from "../__fixtures__/http-call.js";
import { readAudit } from "../__fixtures__/test-app.js";

const CHILD = fileURLToPath(new URL("../__fixtures__/sidecar-child.mjs", import.meta.url));
const WRITE_DELAY_MS = 1500;

let provider: FastifyInstance;
let writesReceived = 0;
let child: ChildProcess | undefined;

beforeAll(async () => {
  const { ca, key, cert } = await createTestCertificates(["api.github.com"]);
  // GitHub's create-an-issue answer (https://docs.github.com/en/rest/issues/issues#create-an-issue), slowly.
  provider = Fastify({ https: { key, cert } });
  provider.post("/repos/:owner/:repo/issues", async (request, reply) => {
    writesReceived += 1;
    await new Promise((resolve) => setTimeout(resolve, WRITE_DELAY_MS));
    return reply
      .code(201)
      .send({ id: 1, number: 7, title: (request.body as { title: string }).title, state: "open", html_url: "https://github.com/octocat/hello-world/issues/7" });
  });
  await provider.listen({ host: "127.0.0.1", port: 0 });
  const providerPort = (provider.server.address() as { port: number }).port;
  const home = await temporaryDirectory("sidecar-sigterm-");
  await writeFile(join(home, "trusted-members.json"), JSON.stringify([member.publicKey]));
  child = fork(CHILD, [], {
    env: { ...process.env, SIDECAR_HOME: home, SIDECAR_CHILD_CA: ca, SIDECAR_CHILD_PROVIDER_PORT: String(providerPort) },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  await new Promise((resolve, reject) => {
    child?.once("message", (message) => resolve(Object.assign(started, message)));
    child?.once("exit", (code) => reject(new Error(`sidecar child exited with ${code}`)));
  });
});

const started = {} as { port: number; callerTokenFile: string; auditFile: string; publicKey: string };

afterAll(async () => {
  if (child !== undefined && child.exitCode === null) child.kill("SIGKILL");
  await provider.close();
});

describe("SIGTERM", () => {
  it("lets the write in flight finish, answers it, writes its audit outcome and exits 0", async () => {
    const token = (await readFile(started.callerTokenFile, "utf8")).trim();
    const headers = { authorization: `Bearer ${token}` };
    const grant = grantFor({ access: "write", botPublicKey: started.publicKey });
    const args = { owner: "octocat", repo: "hello-world", title: "Sent before SIGTERM" };
    const asked = await httpCall({ port: started.port, method: "POST", path: "/v1/run", headers, body: { grant, op: "issues.create", args } });
    const ask = asked.json() as { status: string; confirm: string; preview?: string; gid: string };
    expect(ask.status).toBe("confirmation_required");
    const line = ask.preview === undefined ? ask.confirm : `${ask.confirm}\n${ask.preview}`;
    const confirmation = signConfirmation({ member, grant: { gid: ask.gid, iss: member.publicKey }, op: "issues.create", args, line });

    const answer = httpCall({ port: started.port, method: "POST", path: "/v1/run", headers, body: { grant, op: "issues.create", args, confirmation } });
    while (writesReceived === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    const exited = new Promise<number | null>((resolve) => child?.once("exit", (code) => resolve(code)));
    child?.kill("SIGTERM");

    const answered = await answer;
    expect(answered.statusCode).toBe(200);
    expect(answered.json()).toMatchObject({ status: "ok", http_status: 201 });
    expect(await exited).toBe(0);
    const lines = await readAudit(started.auditFile);
    const writeLines = lines.filter((line) => line.op === "issues.create" && line.status !== "confirmation_required");
    expect(writeLines.map((line) => line.status)).toEqual(["started", "ok"]);
    expect(writeLines[0]?.audit_id).toBe(writeLines[1]?.audit_id);
    // Closed: nothing listens any more.
    await expect(httpCall({ port: started.port, path: "/v1/identity", headers })).rejects.toThrow();
  });
});

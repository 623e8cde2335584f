// The real `eleven-sidecar` bin (dist/server.js) with the standard OTLP variables set: each
// /v1/run becomes one `eleven.run` span, exported as OTLP/HTTP JSON to a loopback receiver,
// and SIGTERM flushes the batch before the process exits.
import { spawn, type ChildProcess } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantFor, member, MEMBER_TOKEN, temporaryDirectory } from "../__fixtures__/grant-kit.js";
import { httpCall } from "../__fixtures__/http-call.js";

const BIN = fileURLToPath(new URL("../../dist/server.js", import.meta.url));
const SECRET_TITLE = "arg-value-that-must-never-be-exported";

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string };
}
interface OtlpSpan {
  name: string;
  attributes: OtlpAttribute[];
}
interface OtlpRequest {
  resourceSpans: { resource: { attributes: OtlpAttribute[] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
}

let receiver: FastifyInstance;
const received: { contentType: string | undefined; text: string; body: OtlpRequest }[] = [];
let child: ChildProcess | undefined;
let stderr = "";

function attributes(list: OtlpAttribute[]): Record<string, string | undefined> {
  return Object.fromEntries(list.map((attribute) => [attribute.key, attribute.value.stringValue]));
}

beforeAll(async () => {
  receiver = Fastify();
  receiver.post("/v1/traces", async (request) => {
    received.push({ contentType: request.headers["content-type"], text: JSON.stringify(request.body), body: request.body as OtlpRequest });
    return {};
  });
  await receiver.listen({ host: "127.0.0.1", port: 0 });
  const receiverPort = (receiver.server.address() as { port: number }).port;
  const home = await temporaryDirectory("sidecar-traces-");
  await writeFile(join(home, "trusted-members.json"), JSON.stringify([member.publicKey]));
  child = spawn(process.execPath, [BIN], {
    env: {
      ...process.env,
      SIDECAR_HOME: home,
      PORT: "0",
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${receiverPort}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_SERVICE_NAME: "sidecar-under-test",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  child.stderr?.setEncoding("utf8");
  await new Promise<void>((resolve, reject) => {
    child?.stderr?.on("data", (chunk: string) => {
      stderr += chunk;
      if (stderr.includes("traces:")) resolve();
    });
    child?.once("exit", (code) => reject(new Error(`sidecar exited with ${code}: ${stderr}`)));
  });
});

afterAll(async () => {
  if (child !== undefined && child.exitCode === null) child.kill("SIGKILL");
  await receiver.close();
});

describe("eleven.run spans from the bin", () => {
  it("exports one span per run with integration, op, status and code, no secret, flushed on SIGTERM", async () => {
    const port = Number(/listening on \S*:(\d+)/.exec(stderr)?.[1]);
    const publicKey = /bot public key: (\S+)/.exec(stderr)?.[1] ?? "";
    const tokenFile = /caller token: +(\S+)/.exec(stderr)?.[1] ?? "";
    const token = (await readFile(tokenFile, "utf8")).trim();
    const headers = { authorization: `Bearer ${token}` };
    const grant = grantFor({ access: "write", botPublicKey: publicKey });
    // A write without its confirmation is answered before any provider call.
    const asked = await httpCall({
      port,
      method: "POST",
      path: "/v1/run",
      headers,
      body: { grant, op: "issues.create", args: { owner: "octocat", repo: "hello-world", title: SECRET_TITLE } },
    });
    expect(asked.json()).toMatchObject({ status: "confirmation_required" });
    const refused = await httpCall({ port, method: "POST", path: "/v1/run", headers, body: { grant: "not-a-grant", op: "repos.list", args: {} } });
    expect(refused.json()).toMatchObject({ status: "error", error: { code: "grant_invalid" } });
    // Batched (5 s by default): nothing is sent yet; SIGTERM must flush it.
    expect(received).toEqual([]);

    const exited = new Promise<number | null>((resolve) => child?.once("exit", (code) => resolve(code)));
    child?.kill("SIGTERM");
    expect(await exited).toBe(0);

    expect(received.length).toBeGreaterThan(0);
    expect(received[0]?.contentType).toContain("application/json");
    const resources = received.flatMap((request) => request.body.resourceSpans);
    expect(attributes(resources[0]?.resource.attributes ?? [])["service.name"]).toBe("sidecar-under-test");
    const spans = resources.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans));
    expect(spans.map((span) => span.name)).toEqual(["eleven.run", "eleven.run"]);
    expect(spans.map((span) => attributes(span.attributes))).toEqual([
      { "eleven.integration": "github", "eleven.op": "issues.create", "eleven.status": "confirmation_required", "eleven.code": "none" },
      { "eleven.integration": "none", "eleven.op": "none", "eleven.status": "error", "eleven.code": "grant_invalid" },
    ]);
    const exported = received.map((request) => request.text).join("\n");
    for (const secret of [SECRET_TITLE, token, grant, MEMBER_TOKEN, "octocat", "not-a-grant"]) expect(exported).not.toContain(secret);
  });
});

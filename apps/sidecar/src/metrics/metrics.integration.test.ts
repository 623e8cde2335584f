import { spawnSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSidecar, type RunningTcpSidecar } from "../start/start-server.js";
import { grantFor, member, MEMBER_TOKEN, temporaryDirectory } from "../__fixtures__/grant-kit.js";
import { httpCall } from "../__fixtures__/http-call.js";
import { startProviderStandIn, type ProviderStandIn } from "../__fixtures__/provider-stand-in.js";
import { SidecarMetrics } from "./sidecar-metrics.js";

let provider: ProviderStandIn;
let sidecar: RunningTcpSidecar;
let token: string;
let metricsPort: number;

// Values a run carries that must never become a label: arg values, the grant, the member's key, the caller token.
const SECRET_ARG = "sk_live_secretLookingArgValue0123456789";

beforeAll(async () => {
  provider = await startProviderStandIn();
  const home = await temporaryDirectory("sidecar-metrics-");
  await writeFile(join(home, "trusted-members.json"), JSON.stringify([member.publicKey]), { mode: 0o644 });
  sidecar = await startSidecar({ home, port: 0, metricsPort: 0, dispatcher: provider.dispatcher });
  token = (await readFile(sidecar.callerTokenFile, "utf8")).trim();
  metricsPort = sidecar.metricsPort as number;
});

afterAll(async () => {
  await sidecar?.close();
  await provider?.close();
});

async function scrape(): Promise<string> {
  const answer = await httpCall({ port: metricsPort, path: "/metrics" });
  expect(answer.statusCode).toBe(200);
  return answer.text;
}

describe("the metrics listener", () => {
  it("listens on 127.0.0.1, on another port than the main listener", () => {
    expect(metricsPort).toBeGreaterThan(0);
    expect(metricsPort).not.toBe(sidecar.port);
  });

  it("counts runs by integration, op, status and code, with their latency, and requests by route pattern", async () => {
    const grant = grantFor({ botPublicKey: sidecar.publicKey });
    const ok = await httpCall({
      port: sidecar.port,
      method: "POST",
      path: "/v1/run",
      headers: { authorization: `Bearer ${token}` },
      body: { grant, op: "repos.list" },
    });
    expect(ok.statusCode).toBe(200);
    // A run with secret-looking arg values and an op the registry does not know.
    await httpCall({
      port: sidecar.port,
      method: "POST",
      path: "/v1/run",
      headers: { authorization: `Bearer ${token}` },
      body: { grant, op: "issues.list", args: { owner: SECRET_ARG, repo: SECRET_ARG } },
    });
    await httpCall({
      port: sidecar.port,
      method: "POST",
      path: "/v1/run",
      headers: { authorization: `Bearer ${token}` },
      body: { grant, op: `no.such.op.${SECRET_ARG}` },
    });
    await httpCall({ port: sidecar.port, path: `/v1/nowhere/${SECRET_ARG}`, headers: { authorization: `Bearer ${token}` } });
    const text = await scrape();
    expect(text).toMatch(/^eleven_sidecar_runs_total\{integration="github",op="repos.list",status="ok",code="none"\} 1$/m);
    expect(text).toMatch(/^eleven_sidecar_run_duration_seconds_count\{integration="github",op="repos.list"\} 1$/m);
    expect(text).toMatch(/^eleven_sidecar_provider_duration_seconds_count\{integration="github",op="repos.list"\} 1$/m);
    expect(text).toMatch(/^eleven_sidecar_http_requests_total\{route="\/v1\/run",method="POST",status="200"\} [1-9]/m);
    expect(text).toMatch(/^eleven_sidecar_http_requests_total\{route="unmatched",method="GET",status="404"\} 1$/m);
    expect(text).toMatch(/^eleven_sidecar_registry_sequence 0$/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(text).not.toMatch(/nodejs_active_(handles|requests|resources)_total/);
    for (const secret of [SECRET_ARG, MEMBER_TOKEN, token, member.publicKey, sidecar.publicKey, grant.slice(0, 24)]) expect(text).not.toContain(secret);
  });

  it("the attack: made-up op ids, integrations and methods add no series; each counts under one unknown value", async () => {
    const run = (grant: string, op: string) =>
      httpCall({ port: sidecar.port, method: "POST", path: "/v1/run", headers: { authorization: `Bearer ${token}` }, body: { grant, op } });
    const github = grantFor({ botPublicKey: sidecar.publicKey });
    const madeUp = (index: number) => grantFor({ botPublicKey: sidecar.publicKey, integration: `made-up-${index}`, manifestHash: "ab".repeat(32) });
    const attack = async (from: number, to: number) => {
      for (let index = from; index < to; index += 1) {
        await run(github, `repos.made_up_${index}`);
        await run(madeUp(index), `things.list_${index}`);
        const method = ["PROPFIND", "MKCOL", "LOCK", "UNLOCK", "COPY", "MOVE", "SEARCH", "PURGE"][index % 8] as string;
        await httpCall({ port: sidecar.port, method, path: `/v1/run/${index}`, headers: { authorization: `Bearer ${token}` } });
      }
    };
    const series = (text: string) => text.split("\n").filter((line) => line.startsWith("eleven_sidecar_")).length;
    await attack(0, 8);
    const before = series(await scrape());
    await attack(8, 150);
    const text = await scrape();
    expect(series(text)).toBe(before);
    expect(text).toMatch(/^eleven_sidecar_runs_total\{integration="github",op="unknown",status="error",code="[a-z_]+"\} 150$/m);
    expect(text).toMatch(/^eleven_sidecar_runs_total\{integration="unknown",op="unknown",status="error",code="[a-z_]+"\} 150$/m);
    expect(text).not.toMatch(/made_up|made-up|things\.list/);
  });

  it("passes promtool check metrics", async () => {
    const text = await scrape();
    const result = spawnSync("promtool", ["check", "metrics"], { input: text, encoding: "utf8" });
    expect(result.error).toBeUndefined();
    expect(result.stderr + result.stdout).toBe("");
    expect(result.status).toBe(0);
  });

  it("answers /healthz and /readyz there without a token", async () => {
    const health = await httpCall({ port: metricsPort, path: "/healthz" });
    expect(health.statusCode).toBe(200);
    const ready = await httpCall({ port: metricsPort, path: "/readyz" });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: "ready" });
  });

  it("is never served on the main listener", async () => {
    const answer = await httpCall({ port: sidecar.port, path: "/metrics", headers: { authorization: `Bearer ${token}` } });
    expect(answer.statusCode).toBe(404);
    expect(answer.text).not.toContain("eleven_sidecar_runs_total");
  });
});

describe("SidecarMetrics", () => {
  it("keeps an op out of the labels when its integration was not known", async () => {
    const metrics = new SidecarMetrics();
    metrics.recordRun({
      time: "",
      audit_id: "a",
      gid: null,
      member: null,
      integration: null,
      op: SECRET_ARG,
      access: null,
      args_digest: null,
      account: null,
      status: "error",
      code: "unknown_op",
      http_status: null,
      duration_ms: 3,
    });
    const text = await metrics.exposition();
    expect(text).toMatch(/^eleven_sidecar_runs_total\{integration="none",op="none",status="error",code="unknown_op"\} 1$/m);
    expect(text).not.toContain(SECRET_ARG);
  });

  it("does not count a write's started line, only its outcome", async () => {
    const metrics = new SidecarMetrics();
    metrics.recordRun({
      time: "",
      audit_id: "a",
      gid: "g",
      member: "m",
      integration: "github",
      op: "issues.create",
      access: "write",
      args_digest: "d",
      account: null,
      status: "started",
      code: null,
      http_status: null,
      duration_ms: 1,
    });
    expect(await metrics.exposition()).not.toMatch(/^eleven_sidecar_runs_total\{/m);
  });
});

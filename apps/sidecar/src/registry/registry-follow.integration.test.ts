import { join } from "node:path";
import { signRelease } from "@eleven-integrations/grants";
import { loadRegistryFromRelease } from "@eleven-integrations/loader";
import type { FastifyInstance } from "fastify";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import { bot, CALLER_TOKEN, grantFor, member, registry as embedded, temporaryDirectory } from "../__fixtures__/grant-kit.js";
import { captureLogs } from "../__fixtures__/log-capture.js";
import { releaseBody, releaseKey, serveDocument, startReleaseServer, type ReleaseServer } from "../__fixtures__/release-kit.js";
import { authorized, mockProvider, type MockProvider } from "../__fixtures__/test-app.js";
import { SidecarStartError } from "../start/start-error.js";
import type { SidecarConfig } from "../config/config.js";

type Json = Record<string, unknown>;
const GITHUB = "https://api.github.com";
let server: ReleaseServer;
let provider: MockProvider;
let app: FastifyInstance | undefined;

beforeAll(async () => {
  server = await startReleaseServer();
});
afterAll(async () => {
  await server.app.close();
});
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function followingApp(overrides: Partial<SidecarConfig> = {}): Promise<FastifyInstance> {
  provider = mockProvider();
  const home = await temporaryDirectory();
  const built = buildApp({
    registry: embedded,
    botKeys: bot,
    trustedMembers: [member.publicKey],
    callerToken: CALLER_TOKEN,
    auditFile: join(home, "audit.log"),
    dispatcher: provider.dispatcher,
    logger: { level: "info", stream: captureLogs().stream },
    registryUrl: server.url,
    registryKeys: [releaseKey.publicKey],
    registrySyncMs: 150,
    registryCacheFile: join(home, "registry-release.json"),
    ...overrides,
  });
  app = built;
  await built.ready();
  return built;
}

async function post(target: FastifyInstance, url: string, payload: object) {
  const response = await target.inject({ method: "POST", url, headers: authorized, payload });
  return response.json() as Json;
}

async function identity(target: FastifyInstance) {
  return (await target.inject({ method: "GET", url: "/v1/identity", headers: authorized })).json() as {
    registry: { sequence: number; hash: string; source: string };
  };
}

async function waitForSequence(target: FastifyInstance, sequence: number): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if ((await identity(target)).registry.sequence === sequence) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the sidecar never ran release ${sequence}`);
}

/** Release 2: GitHub's `repos.list` becomes `repos.list_mine`; every other manifest is unchanged. */
function release2(): string {
  return signRelease(
    releaseBody(2, (manifest) => {
      if (manifest.id !== "github") return manifest;
      const ops = (manifest.ops as Json[]).map((op) => (op.id === "repos.list" ? { ...op, id: "repos.list_mine", label: "List my repositories" } : op));
      return { ...manifest, ops };
    }),
    [releaseKey],
  );
}

describe("buildApp with registryUrl and registryKeys", () => {
  it("swaps to a new release atomically: a run in flight finishes on the old registry, new grants see the new ops without a restart", async () => {
    server.route = (_request, reply) => reply.code(404).send();
    const sidecar = await followingApp();
    expect((await identity(sidecar)).registry).toEqual({ hash: embedded.hash, sequence: 0, source: "embedded", synced_at: null });

    const oldGithubGrant = grantFor();
    const slackGrant = grantFor({ integration: "slack" });
    provider.agent
      .get(GITHUB)
      .intercept({ path: (path) => path.startsWith("/user/repos"), method: "GET" })
      .reply(200, [{ full_name: "octocat/hello-world", private: false }])
      .delay(1500)
      .times(2);
    const inFlight = post(sidecar, "/v1/run", { grant: oldGithubGrant, op: "repos.list" });
    await new Promise((resolve) => setTimeout(resolve, 200));

    server.route = serveDocument(release2());
    await waitForSequence(sidecar, 2);
    // Started before the swap: finishes on release 0, where repos.list exists.
    expect(await inFlight).toMatchObject({ status: "ok", op: "repos.list", http_status: 200 });

    const now = await identity(sidecar);
    expect(now.registry.source).toBe("synced");
    // GitHub changed: its old grant is refused; Slack did not: its grant keeps working.
    expect(await post(sidecar, "/v1/run", { grant: oldGithubGrant, op: "repos.list" })).toMatchObject({ status: "error", error: { code: "grant_invalid" } });
    expect(await post(sidecar, "/v1/ops", { grant: slackGrant })).toMatchObject({ status: "ok", integration: "slack" });

    const running = loadRegistryFromRelease(JSON.parse(release2()).registry);
    const newGrant = grantFor({ manifestHash: running.manifestHash("github") as string });
    const palette = await post(sidecar, "/v1/ops", { grant: newGrant });
    expect((palette.ops as { id: string }[]).map((op) => op.id)).toContain("repos.list_mine");
    expect((palette.ops as { id: string }[]).map((op) => op.id)).not.toContain("repos.list");
    expect(await post(sidecar, "/v1/run", { grant: newGrant, op: "repos.list_mine" })).toMatchObject({ status: "ok", op: "repos.list_mine", http_status: 200 });
  });

  it("refuses a sync configuration that cannot work, before starting", async () => {
    const base = { registry: embedded, botKeys: bot, trustedMembers: [], callerToken: CALLER_TOKEN, auditFile: "/tmp/unused-audit.log" };
    const refused = (extra: Partial<SidecarConfig>) => {
      try {
        buildApp({ ...base, ...extra });
      } catch (error) {
        expect(SidecarStartError.isInstance(error)).toBe(true);
        return (error as Error).message;
      }
      throw new Error("expected a SidecarStartError");
    };
    expect(refused({ registryUrl: server.url })).toMatch(/registryKeys is required/);
    expect(refused({ registryUrl: "ftp://broker.example/registry.signed", registryKeys: [releaseKey.publicKey] })).toMatch(/http or https/);
    expect(refused({ registryUrl: server.url, registryKeys: ["not-a-key"] })).toMatch(/registryKeys entry 1/);
    expect(refused({ registryUrl: server.url, registryKeys: [releaseKey.publicKey], registrySyncMs: 5 })).toMatch(/registrySyncMs/);
    expect(refused({ registryKeys: [releaseKey.publicKey] })).toMatch(/without registryUrl/);
  });
});

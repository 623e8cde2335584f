// The attack of finding 1 of the third review, against a real broker and a real
// following sidecar over loopback: about 180 maximum-size anonymous entries posted to
// `POST /revocations` made every later feed page larger than the follower's 4 MiB cap,
// so the follower retried the same cursor forever and no revocation reached it.
// Fixed: the broker's pages are bounded in bytes, and a follower that cannot read the
// feed for three intervals says so on /readyz.
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { buildApp as buildBroker } from "@eleven-integrations/broker";
import { MAX_REVOCATION_LENGTH, signRevocation } from "@eleven-integrations/grants";
import Fastify, { type FastifyInstance } from "fastify";
import { Agent, request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import { bot, CALLER_TOKEN, grantFor, member, registry, temporaryDirectory } from "../__fixtures__/grant-kit.js";
import { releaseKey } from "../__fixtures__/release-kit.js";
import { authorized, mockProvider } from "../__fixtures__/test-app.js";
import { MAX_REVOCATIONS_ANSWER_BYTES } from "./revocation-follow-config.js";

const GITHUB = "https://api.github.com";
const FOLLOW_MS = 1_000;
const closers: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A sidecar following the revocations of the broker at `origin`, GitHub answering every list. */
async function followingSidecar(origin: string): Promise<FastifyInstance> {
  const home = await temporaryDirectory();
  const provider = mockProvider();
  provider.agent
    .get(GITHUB)
    .intercept({ path: (path) => path.startsWith("/user/repos"), method: "GET" })
    .reply(200, [])
    .persist();
  const loopback = new Agent();
  const sidecar = buildApp({
    registry,
    botKeys: bot,
    trustedMembers: [member.publicKey],
    callerToken: CALLER_TOKEN,
    auditFile: join(home, "audit.log"),
    revocationFile: join(home, "revocations.log"),
    dispatcher: provider.dispatcher,
    logger: false,
    registryUrl: `${origin}/registry.signed`,
    registryKeys: [releaseKey.publicKey],
    registryDispatcher: loopback,
    revocationSyncMs: FOLLOW_MS,
  });
  closers.push(
    () => loopback.close(),
    () => sidecar.close(),
  );
  await sidecar.ready();
  return sidecar;
}

async function runs(sidecar: FastifyInstance, grant: string): Promise<boolean> {
  const answer = (await sidecar.inject({ method: "POST", url: "/v1/run", headers: authorized, payload: { grant, op: "repos.list" } })).json() as {
    status: string;
  };
  return answer.status === "ok";
}

async function post(origin: string, revocation: string): Promise<number> {
  const response = await request(`${origin}/revocations`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ revocation }),
  });
  await response.body.dump();
  return response.statusCode;
}

/** An anonymous entry of the largest size the broker keeps: the right shape, signed by no one. */
function junk(): string {
  return `er1.${randomBytes(MAX_REVOCATION_LENGTH)
    .toString("base64url")
    .slice(0, MAX_REVOCATION_LENGTH - 4)}`;
}

describe("a flood of maximum-size entries on the broker's feed", () => {
  it("cannot blind a following sidecar: a real revocation posted after 200 junk entries (4.8 MB) stops the grant within 5 s", async () => {
    // The budgets are opened wide: this is the page-size attack (as if from many addresses), not the budget one.
    const broker = buildBroker({
      registry,
      publicUrl: "https://broker.example.test",
      stateKey: randomBytes(32).toString("base64url"),
      allowedReturnTo: [],
      revocationLimits: { perAddress: 10_000, global: 10_000 },
    });
    closers.push(() => broker.close());
    const origin = await broker.listen({ host: "127.0.0.1", port: 0 });
    const sidecar = await followingSidecar(origin);
    const grant = grantFor();
    expect(await runs(sidecar, grant)).toBe(true);

    const flood = Array.from({ length: 200 }, junk);
    expect(flood.reduce((bytes, entry) => bytes + entry.length, 0)).toBeGreaterThan(MAX_REVOCATIONS_ANSWER_BYTES);
    for (const entry of flood) expect(await post(origin, entry)).toBe(202);

    const posted = Date.now();
    expect(await post(origin, signRevocation({ member, grant }))).toBe(202);
    while ((await runs(sidecar, grant)) && Date.now() - posted < 6_000) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await runs(sidecar, grant)).toBe(false);
    expect(Date.now() - posted).toBeLessThan(5_000);
    // The follower kept up: it is ready, and another grant still runs.
    expect((await sidecar.inject({ method: "GET", url: "/readyz", headers: authorized })).statusCode).toBe(200);
    expect(await runs(sidecar, grantFor())).toBe(true);
    // Every page of the feed, read as the follower reads it, fits its cap.
    let cursor = "0";
    for (let page = 0; page < 10; page += 1) {
      const response = await request(`${origin}/revocations?since=${cursor}`);
      const text = await response.body.text();
      expect(Buffer.byteLength(text)).toBeLessThan(MAX_REVOCATIONS_ANSWER_BYTES);
      const body = JSON.parse(text) as { revocations: string[]; next: string };
      if (body.revocations.length === 0) break;
      cursor = body.next;
    }
  }, 60_000);

  it("makes a sidecar that cannot read its broker's feed for three intervals not ready: /readyz 503 revocation_follow_stale", async () => {
    // A broker whose feed answers a page over the follower's cap, as the old broker did after the flood.
    const stale = Fastify();
    const oversize = JSON.stringify({ revocations: [junk()], next: "1" }).padEnd(MAX_REVOCATIONS_ANSWER_BYTES + 1024, " ");
    stale.get("/registry.signed", (_request, reply) => reply.code(404).send());
    stale.get("/revocations", (_request, reply) => reply.type("application/json").send(oversize));
    closers.push(() => stale.close());
    const sidecar = await followingSidecar(await stale.listen({ host: "127.0.0.1", port: 0 }));
    const readyz = async () => (await sidecar.inject({ method: "GET", url: "/readyz", headers: authorized })).json() as { status: string; reasons?: string[] };
    const started = Date.now();
    while ((await readyz()).status === "ready" && Date.now() - started < 8_000) await new Promise((resolve) => setTimeout(resolve, 100));
    const answer = await sidecar.inject({ method: "GET", url: "/readyz", headers: authorized });
    expect(answer.statusCode).toBe(503);
    expect((answer.json() as { reasons: string[] }).reasons).toContain("revocation_follow_stale");
    expect(Date.now() - started).toBeGreaterThan(3 * FOLLOW_MS - 500);
  }, 30_000);
});

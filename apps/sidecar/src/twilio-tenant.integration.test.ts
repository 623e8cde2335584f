// Third review, finding 12 (Twilio): tenant values follow the manifest's own pattern. A Twilio
// Account SID is upper-case `AC` and 32 hex digits, a path segment of the base; the grant's
// connection rule was a DNS label's `[a-z0-9-]`, so no Twilio grant could be issued at all.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { issueGrant } from "@eleven-integrations/grants";
import { createLoopbackDispatcher, createTestCertificates } from "@eleven-integrations/test-support";
import Fastify, { type FastifyInstance } from "fastify";
import type { Dispatcher } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bot, manifestHash, member, registry, temporaryDirectory } from "./__fixtures__/grant-kit.js";
import { httpCall } from "./__fixtures__/http-call.js";
import { startSidecar, type RunningTcpSidecar } from "./start/start-server.js";

const SID = "AC0123456789abcdef0123456789abcdef";
/** base64 of `<API key SID>:<secret>`, which Twilio takes as HTTP Basic credentials. */
const TWILIO_TOKEN = Buffer.from("SK0123456789abcdef0123456789abcdef:secret").toString("base64");

let twilio: FastifyInstance;
let dispatcher: Dispatcher;
let sidecar: RunningTcpSidecar;
let callerToken: string;
const requests: { url: string; authorization: string | undefined }[] = [];

beforeAll(async () => {
  const { ca, key, cert } = await createTestCertificates(["api.twilio.com"]);
  twilio = Fastify({ https: { key, cert } });
  twilio.addHook("onRequest", async (request) => {
    requests.push({ url: request.url, authorization: request.headers.authorization });
  });
  // Twilio's "Fetch a Balance" answer (https://www.twilio.com/docs/usage/api/balance), for the account in the path.
  twilio.get("/2010-04-01/Accounts/:sid/Balance.json", async (request) => ({
    account_sid: (request.params as { sid: string }).sid,
    balance: "0.05",
    currency: "USD",
  }));
  await twilio.listen({ host: "127.0.0.1", port: 0 });
  const address = twilio.server.address();
  dispatcher = createLoopbackDispatcher(ca, { "api.twilio.com": typeof address === "object" && address !== null ? address.port : 0 });
  const home = await temporaryDirectory("sidecar-twilio-");
  await writeFile(join(home, "trusted-members.json"), JSON.stringify([member.publicKey]), { mode: 0o644 });
  sidecar = await startSidecar({ home, port: 0, dispatcher });
  callerToken = (await readFile(sidecar.callerTokenFile, "utf8")).trim();
});

afterAll(async () => {
  await sidecar?.close();
  await twilio?.close();
  await dispatcher?.close();
});

function twilioGrant(connection: Record<string, string>, withManifestAuth: boolean): string {
  const manifest = registry.get("twilio");
  if (manifest === undefined) throw new Error("no twilio manifest");
  return issueGrant({
    member,
    botPublicKey: sidecar.publicKey,
    integration: "twilio",
    manifestHash: manifestHash("twilio"),
    access: "read",
    credential: { kind: "pat", token: TWILIO_TOKEN },
    connection,
    ...(withManifestAuth ? { auth: manifest.auth } : {}),
    ttlSeconds: 600,
  });
}

async function run(grant: string, op: string) {
  const answer = await httpCall({
    port: sidecar.port,
    method: "POST",
    path: "/v1/run",
    headers: { authorization: `Bearer ${callerToken}` },
    body: { grant, op },
  });
  return answer.json() as Record<string, unknown> & { error?: { code: string; message: string } };
}

describe("a Twilio grant (tenant values follow the manifest's own pattern)", () => {
  it("is issued with an Account SID of upper-case AC and 32 hex digits, and runs against that account", async () => {
    expect(bot.publicKey).not.toBe(sidecar.publicKey);
    const answer = await run(twilioGrant({ account_sid: SID }, true), "balance.get");
    expect(answer).toMatchObject({ status: "ok", integration: "twilio", op: "balance.get", data: { account_sid: SID, balance: "0.05", currency: "USD" } });
    expect(requests.at(-1)).toEqual({ url: `/2010-04-01/Accounts/${SID}/Balance.json`, authorization: `Basic ${TWILIO_TOKEN}` });
  });

  it("an Account SID off the pattern is refused when issued, and when a grant carries one the sidecar sends nothing", async () => {
    expect(() => twilioGrant({ account_sid: SID.toLowerCase() }, true)).toThrow("pattern");
    expect(() => twilioGrant({ account_sid: "AC0123" }, true)).toThrow("pattern");
    // Issued without the manifest (the lowercase spelling passes the place-free rule): the sidecar holds it to the pattern.
    const sent = requests.length;
    const answer = await run(twilioGrant({ account_sid: SID.toLowerCase() }, false), "balance.get");
    expect(answer.status).toBe("error");
    expect(answer.error?.message).toContain("account_sid");
    expect(requests).toHaveLength(sent);
  });
});

// Every shipped integration that declares `auth.identity` says who a credential is: the
// identity op's recorded exchange (__fixtures__/<id>.json) and, for the integrations shipped
// before the third release, its documented example (__fixtures__/provider-truth/<id>.json,
// `identity`, with its source) come back as an account { id, name } through the executor
// and accountFromIdentity.
import { readFileSync } from "node:fs";
import { loadRegistry, resolveBase, type Registry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";
import { createLoopbackDispatcher, createTestCertificates } from "@eleven-integrations/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountFromIdentity } from "./account.js";
import { createExecutor, type Executor } from "./create-executor.js";
import { startTestServer, type TestServer } from "./test-support/test-server.js";

interface IdentityExample {
  readonly source: string;
  readonly op: string;
  readonly response: { readonly status: number; readonly headers: Record<string, string>; readonly body: unknown };
  readonly expect: { readonly account: { readonly id: string; readonly name: string } };
}

/** The integrations shipped before the third release: each declares its identity op. */
const DECLARING = ["github", "gitlab", "slack", "google-calendar", "linear", "notion", "stripe", "todoist", "gandi"];

const registry: Registry = loadRegistry(manifestFiles);
const readFixture = (file: string): unknown => JSON.parse(readFileSync(new URL(file, import.meta.url), "utf8"));
const identityOf = (id: string): IdentityExample | undefined =>
  (readFixture(`./__fixtures__/provider-truth/${id}.json`) as { identity?: IdentityExample }).identity;
interface Recorded {
  readonly response: IdentityExample["response"];
  /** The tenant settings of a manifest whose base names a tenant. */
  readonly connection?: Record<string, string>;
}
const recordedOf = (id: string, op: string): Recorded | undefined => (readFixture(`./__fixtures__/${id}.json`) as Record<string, Recorded>)[op];
const declaring = registry.integrations().filter((manifest) => manifest.auth.identity !== undefined);
/** The host the identity op reaches: the base's, its tenant filled from the recorded connection. */
function hostOf(manifest: (typeof declaring)[number]): string {
  const resolved = resolveBase(manifest, recordedOf(manifest.id, manifest.auth.identity as string)?.connection);
  if (!resolved.ok) throw new Error(`${manifest.id}: the recorded identity exchange names no valid tenant`);
  return new URL(resolved.base.origin).hostname;
}
const hosts = [...new Set(declaring.map(hostOf))];

let server: TestServer;
let executor: Executor;
let current: IdentityExample["response"] | undefined;
let closeDispatcher: () => Promise<void>;
beforeAll(async () => {
  const certificates = await createTestCertificates(hosts);
  server = await startTestServer(certificates, (_request, reply) =>
    current === undefined ? reply.code(500).send() : reply.code(current.status).headers(current.headers).send(JSON.stringify(current.body)),
  );
  const dispatcher = createLoopbackDispatcher(certificates.ca, new Map(hosts.map((host) => [host, server.port])));
  closeDispatcher = () => dispatcher.destroy();
  executor = createExecutor({ registry, dispatcher, limits: { retries: 0 } });
});
afterAll(async () => {
  await closeDispatcher();
  await server.close();
});

it("every integration shipped before the third release declares its identity op", () => {
  expect(declaring.map((manifest) => manifest.id)).toEqual(expect.arrayContaining(DECLARING));
});

describe.each(declaring.map((manifest) => [manifest.id, manifest] as const))("%s", (id, manifest) => {
  it("answers its recorded identity exchange as an account", async () => {
    const op = manifest.auth.identity as string;
    const recorded = recordedOf(id, op);
    expect(recorded, `${id}: no recorded exchange for ${op}`).toBeDefined();
    current = recorded?.response;
    const envelope = await executor.run({ integration: id, op, credential: { token: `token-for-${id}` }, connection: recorded?.connection });
    const result = accountFromIdentity(manifest, envelope);
    expect(result.ok, JSON.stringify(result)).toBe(true);
  });

  it("refuses a connection whose identity answer leaves out the account's id", async () => {
    const op = manifest.auth.identity as string;
    const recorded = recordedOf(id, op);
    current = recorded?.response;
    const fields = manifest.auth.identity_fields;
    const envelope = await executor.run({ integration: id, op, credential: { token: `token-for-${id}` }, connection: recorded?.connection });
    if (envelope.status !== "ok") throw new Error(`${id}: identity example did not run`);
    const data = { ...(envelope.data as Record<string, unknown>) };
    delete data[fields?.id ?? "id"];
    expect(accountFromIdentity(manifest, { ...envelope, data })).toMatchObject({ ok: false, error: { code: "identity_incomplete" } });
  });
});

describe.each(DECLARING.map((id) => [id, registry.get(id)] as const))("%s, shipped before the third release", (id, declared) => {
  if (declared === undefined) throw new Error(`${id} is not shipped`);
  const manifest = declared;
  it("answers its documented identity example (provider truth, with its source) as the account it names", async () => {
    const example = identityOf(id);
    expect(example, `${id}: provider-truth fixture has no identity example`).toBeDefined();
    if (example === undefined) return;
    expect(example.source).toMatch(/^https:\/\//);
    expect(example.op).toBe(manifest.auth.identity);
    current = example.response;
    server.requests.length = 0;
    const envelope = await executor.run({ integration: id, op: example.op, credential: { token: `token-for-${id}` } });
    expect(server.requests).toHaveLength(1);
    expect(accountFromIdentity(manifest, envelope)).toEqual({ ok: true, account: example.expect.account });
  });
});

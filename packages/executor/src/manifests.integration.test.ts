import { readFileSync } from "node:fs";
import { loadRegistry, type CompiledOperation, type Registry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";
import type { RunArgs } from "@eleven-integrations/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountFromIdentity } from "./account.js";
import { createExecutor, type Executor } from "./create-executor.js";
import { createLoopbackDispatcher, createTestCertificates } from "@eleven-integrations/test-support";
import { startTestServer, type TestServer } from "./test-support/test-server.js";

/** One op's recorded exchange: what the executor must send, what the provider answers, what comes back. */
interface Fixture {
  /** A file arg's value is `{ name, content_type, base64 }`. */
  readonly args: RunArgs;
  /** The connection's tenant settings, for a manifest whose base names one (`{ region: "us" }`). */
  readonly connection?: Record<string, string>;
  /** `headers`: the op's own headers as sent (`ops[].headers`). */
  /** An upload's `body` is the text sent (a multipart boundary written `BOUNDARY`), `content_type` its Content-Type. */
  readonly request: {
    readonly method: string;
    readonly path: string;
    readonly body: unknown;
    readonly headers?: Record<string, string>;
    readonly content_type?: string;
  };
  readonly response: { readonly status: number; readonly headers: Record<string, string>; readonly body: unknown };
  readonly picked: unknown;
}

const registry: Registry = loadRegistry(manifestFiles);
const manifests = registry.integrations();
const fixtures = new Map<string, Record<string, Fixture>>(
  manifests.map((manifest) => [
    manifest.id,
    JSON.parse(readFileSync(new URL(`./__fixtures__/${manifest.id}.json`, import.meta.url), "utf8")) as Record<string, Fixture>,
  ]),
);
/** The host a request reaches: the base's, a tenant placeholder filled from the connection. */
const hostOf = (base: string, connection: Record<string, string> = {}): string =>
  new URL(base.replace(/\{([a-z][a-z0-9_]*)\}/g, (_, name: string) => connection[name] ?? name)).host;
const hosts = [
  ...new Set(
    manifests.flatMap((manifest) =>
      [manifest.auth.base, ...Object.values(manifest.auth.hosts ?? {})].flatMap((base) =>
        Object.values(fixtures.get(manifest.id) ?? {}).map((fixture) => new URL(`https://${hostOf(base, fixture.connection)}`).hostname),
      ),
    ),
  ),
];

let server: TestServer;
let executor: Executor;
let current: Fixture | undefined;
let closeDispatcher: () => Promise<void>;
beforeAll(async () => {
  const certificates = await createTestCertificates(hosts);
  server = await startTestServer(certificates, (_request, reply) => {
    if (current === undefined) return reply.code(500).send();
    const { status, headers, body } = current.response;
    return reply
      .code(status)
      .headers(headers)
      .send(typeof body === "string" ? body : JSON.stringify(body));
  });
  const dispatcher = createLoopbackDispatcher(certificates.ca, new Map(hosts.map((host) => [host, server.port])));
  closeDispatcher = () => dispatcher.destroy();
  executor = createExecutor({ registry, dispatcher, limits: { retries: 0 } });
});
afterAll(async () => {
  await closeDispatcher();
  await server.close();
});

it("ships a fixture for every op of every manifest, and none for ops that do not exist", () => {
  expect(manifests.length).toBeGreaterThan(0);
  for (const manifest of manifests) {
    expect(Object.keys(fixtures.get(manifest.id) ?? {}).sort()).toEqual(manifest.ops.map((op) => op.id).sort());
  }
});

describe.each(manifests.map((manifest) => [manifest.id, manifest] as const))("%s", (id, manifest) => {
  it.each(manifest.ops.map((op) => [op.id] as const))("%s sends what the provider documents and picks what it declares", async (opId) => {
    const fixture = fixtures.get(id)?.[opId] as Fixture;
    const operation = registry.operation(id, opId) as CompiledOperation;
    current = fixture;
    server.requests.length = 0;
    const token = `token-for-${id}`;

    const envelope = await executor.run({ integration: id, op: opId, args: fixture.args, credential: { token }, connection: fixture.connection });

    expect(server.requests).toHaveLength(1);
    const [received] = server.requests;
    expect(received?.method).toBe(fixture.request.method);
    expect(received?.url).toBe(fixture.request.path);
    // An op naming a further host goes there (auth.hosts), else to base.
    const base = operation.host === undefined ? manifest.auth.base : (manifest.auth.hosts?.[operation.host] as string);
    expect(received?.headers.host).toBe(hostOf(base, fixture.connection));
    const credential = manifest.auth.credential;
    if (credential?.in === "header") {
      // A personal token that travels under its own header (Figma's X-Figma-Token): no Authorization at all.
      expect(received?.headers[credential.name.toLowerCase()]).toBe(token);
      expect(received?.headers.authorization).toBeUndefined();
    } else {
      expect(received?.headers.authorization).toBe(manifest.auth.authorization === "none" ? token : `${manifest.auth.authorization} ${token}`);
    }
    for (const [name, value] of Object.entries(fixture.request.headers ?? {})) expect(received?.headers[name]).toBe(value);
    for (const [name, value] of Object.entries(manifest.auth.headers ?? {})) expect(received?.headers[name.toLowerCase()]).toBe(value);
    expect(received?.headers["accept-encoding"]).toBeUndefined();
    if (fixture.request.body === null) {
      expect(received?.body).toBe("");
      expect(received?.headers["content-type"]).toBeUndefined();
    } else if (operation.encoding === "bytes") {
      expect(received?.headers["content-type"]).toBe(fixture.request.content_type);
      expect(received?.body).toBe(fixture.request.body);
    } else if (operation.encoding === "multipart") {
      const boundary = /boundary=(.+)$/.exec(received?.headers["content-type"] ?? "")?.[1] ?? "";
      expect(received?.headers["content-type"]?.replaceAll(boundary, "BOUNDARY")).toBe(fixture.request.content_type);
      expect(received?.body.replaceAll(boundary, "BOUNDARY")).toBe(fixture.request.body);
    } else if (operation.encoding === "form") {
      expect(received?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
      expect(received?.body).toBe(fixture.request.body);
    } else {
      expect(received?.headers["content-type"]).toBe("application/json");
      expect(JSON.parse(received?.body ?? "")).toEqual(fixture.request.body);
    }

    expect(envelope).toMatchObject({ status: "ok", integration: id, op: opId, http_status: fixture.response.status });
    expect(JSON.parse(JSON.stringify(envelope.status === "ok" ? envelope.data : undefined))).toEqual(fixture.picked);
  });
});

describe.each(manifests.filter((manifest) => manifest.auth.identity !== undefined).map((manifest) => [manifest.id, manifest] as const))(
  "%s says who the credential is",
  (id, manifest) => {
    it("its identity op is a read whose documented answer names an account id and name", async () => {
      const identity = manifest.auth.identity as string;
      expect(manifest.ops.find((op) => op.id === identity)?.access).toBe("read");
      const fixture = fixtures.get(id)?.[identity] as Fixture;
      current = fixture;
      const envelope = await executor.run({
        integration: id,
        op: identity,
        args: fixture.args,
        credential: { token: `token-for-${id}` },
        connection: fixture.connection,
      });
      const result = accountFromIdentity(manifest, envelope);
      expect(result.ok, JSON.stringify(result)).toBe(true);
      if (result.ok) {
        expect(result.account.id).not.toBe("");
        expect(result.account.name).not.toBe("");
      }
    });
  },
);

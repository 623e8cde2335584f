import { createHash } from "node:crypto";
// Signed registry releases for sync tests, and a loopback server that serves whatever a test sets.
import { generateReleaseKeys, signRelease, type KeyPair, type ReleaseBody } from "@eleven-integrations/grants";
import { loadRegistry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";

export const releaseKey: KeyPair = generateReleaseKeys();
export const strangerKey: KeyPair = generateReleaseKeys();

type Json = Record<string, unknown>;

/** The shipped manifests, each passed through `change` (return undefined to drop one). */
export function releaseBody(sequence: number, change: (manifest: Json) => Json | undefined = (m) => m, previous: string | null = null): ReleaseBody {
  const files = manifestFiles
    .map(({ file, json }) => ({ file, json: change(structuredClone(json) as Json) }))
    .filter((entry): entry is { file: string; json: Json } => entry.json !== undefined);
  const registry = loadRegistry(files);
  return { schema: 1, hash: registry.hash, sequence, previous, integrations: registry.catalog().integrations.map(({ hash: _hash, ...manifest }) => manifest) };
}

/** Release `sequence` of the shipped manifests, GitHub's name marked with the sequence so each release is another registry. */
export function signedRelease(sequence: number, signers: KeyPair[] = [releaseKey]): string {
  return signRelease(
    releaseBody(sequence, (m) => (m.id === "github" ? { ...m, name: `GitHub r${sequence}` } : m)),
    signers,
  );
}

export type Route = (request: FastifyRequest, reply: FastifyReply) => unknown;

export interface ReleaseServer {
  app: FastifyInstance;
  url: string;
  /** What `GET /registry.signed` does now. */
  route: Route;
  /** The `If-None-Match` of every request, in order (undefined when absent). */
  ifNoneMatch: (string | undefined)[];
  hits: Record<string, number>;
}

/** A fastify server on 127.0.0.1 whose `/registry.signed` answers `server.route`; `/elsewhere` counts hits. */
export async function startReleaseServer(): Promise<ReleaseServer> {
  const app = Fastify({ forceCloseConnections: true });
  const server: ReleaseServer = { app, url: "", route: (_request, reply) => reply.code(404).send(), ifNoneMatch: [], hits: {} };
  app.get("/*", (request, reply) => {
    const path = request.url.split("?")[0] as string;
    server.hits[path] = (server.hits[path] ?? 0) + 1;
    if (path !== "/registry.signed") return reply.type("application/json").send(signedRelease(9));
    server.ifNoneMatch.push(request.headers["if-none-match"]);
    return server.route(request, reply);
  });
  const address = await app.listen({ host: "127.0.0.1", port: 0 });
  server.url = `${address}/registry.signed`;
  return server;
}

/** Serves `document` with a strong ETag and 304s, as the broker does. */
export function serveDocument(document: string | Buffer, etag = `"${createHash("sha256").update(document).digest("hex")}"`): Route {
  return (request, reply) => {
    if (request.headers["if-none-match"] === etag) return reply.code(304).header("etag", etag).send();
    return reply.header("etag", etag).type("application/json").send(Buffer.from(document));
  };
}

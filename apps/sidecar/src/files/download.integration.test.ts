// A bot's download over real sockets: sidecar on loopback, a loopback TLS stand-in for a
// Dropbox-shaped content host. The bot gets the file's metadata; its bytes stay in the
// sidecar's home (files/, 0600).
import { createHash } from "node:crypto";
import { readFile, readdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { issueGrant, openGrant, signConfirmation, type KeyPair } from "@eleven-integrations/grants";
import { loadRegistry } from "@eleven-integrations/loader";
import { createLoopbackDispatcher, createTestCertificates } from "@eleven-integrations/test-support";
import Fastify, { type FastifyInstance } from "fastify";
import type { Dispatcher } from "undici";
import { afterAll, beforeAll, expect, it } from "vitest";
import { member, MEMBER_TOKEN, temporaryDirectory } from "../__fixtures__/grant-kit.js";
import { httpCall } from "../__fixtures__/http-call.js";
import { startSidecar, type RunningSidecar } from "../start/start-server.js";

const API_HOST = "api.files.example.com";
const CONTENT_HOST = "content.files.example.com";
const FILE = Buffer.from(Array.from({ length: 2048 }, (_, index) => (index * 7) % 256));

const registry = loadRegistry([
  {
    file: "filebox.json",
    json: {
      schema: 1,
      id: "filebox",
      name: "Filebox",
      category: "files",
      auth: {
        kind: "pat",
        base: `https://${API_HOST}/2`,
        authorization: "Bearer",
        pat_help: "https://example.com/tokens",
        hosts: { content: `https://${CONTENT_HOST}/2` },
      },
      ops: [
        {
          id: "files.download",
          label: "Download a file",
          access: "read",
          method: "POST",
          host: "content",
          path: "/files/download",
          args: { path: { required: true, max_length: 1000 } },
          headers: { "Dropbox-API-Arg": '{"path":"{path}"}' },
          result: "file",
        },
        {
          id: "files.upload",
          label: "Upload a file",
          access: "write",
          method: "POST",
          host: "content",
          path: "/files/upload",
          encoding: "bytes",
          content_type: "application/octet-stream",
          args: { path: { required: true, max_length: 1000 }, file: { required: true, type: "file" } },
          headers: { "Dropbox-API-Arg": '{"path":"{path}","mode":"add"}' },
          confirm: "Upload {file} to {path}",
        },
      ],
    },
  },
]);

let provider: FastifyInstance;
let dispatcher: Dispatcher;
let sidecar: RunningSidecar;
let home: string;
let callerToken: string;
const uploads: Buffer[] = [];

beforeAll(async () => {
  const certificates = await createTestCertificates([API_HOST, CONTENT_HOST]);
  provider = Fastify({ https: { key: certificates.key, cert: certificates.cert }, logger: false, forceCloseConnections: true });
  provider.post("/2/files/download", (_request, reply) =>
    reply.header("content-type", "text/plain").header("content-disposition", 'attachment; filename="Prime_Numbers.txt"').send(FILE),
  );
  provider.addContentTypeParser("application/octet-stream", { parseAs: "buffer" }, (_request, body, done) => done(null, body));
  provider.post("/2/files/upload", (request, reply) => {
    uploads.push(request.body as Buffer);
    return reply.send({ id: "id:up", name: "Prime_Numbers.txt" });
  });
  await provider.listen({ host: "127.0.0.1", port: 0 });
  const address = provider.server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  dispatcher = createLoopbackDispatcher(
    certificates.ca,
    new Map([
      [API_HOST, port],
      [CONTENT_HOST, port],
    ]),
  );
  home = await temporaryDirectory("sidecar-files-");
  await writeFile(join(home, "trusted-members.json"), JSON.stringify([member.publicKey]));
  sidecar = await startSidecar({ home, port: 0, dispatcher, registry });
  callerToken = (await readFile(sidecar.callerTokenFile, "utf8")).trim();
});
afterAll(async () => {
  await sidecar.close();
  await dispatcher.destroy();
  await provider.close();
});

it("answers a download's name, size, type and SHA-256, and keeps its bytes in <home>/files, 0600", async () => {
  const grant = issueGrant({
    member,
    botPublicKey: sidecar.publicKey,
    integration: "filebox",
    manifestHash: registry.manifestHash("filebox") as string,
    access: "read",
    credential: { kind: "pat", token: MEMBER_TOKEN },
    ttlSeconds: 900,
  });
  const answer = await httpCall({
    port: sidecar.port ?? 0,
    method: "POST",
    path: "/v1/run",
    headers: { authorization: `Bearer ${callerToken}` },
    body: { grant, op: "files.download", args: { path: "/Homework/math/Prime_Numbers.txt" } },
  });
  expect(answer.statusCode).toBe(200);
  const sha256 = createHash("sha256").update(FILE).digest("hex");
  const envelope = answer.json() as Record<string, unknown>;
  expect(envelope).toMatchObject({ status: "ok", data: { name: "Prime_Numbers.txt", size: 2048, content_type: "text/plain", sha256 } });
  expect(answer.text.length).toBeLessThan(1024);
  const folder = join(home, "files");
  expect((await readdir(folder)).sort()).toEqual([sha256, `${sha256}.json`]);
  expect((await readFile(join(folder, sha256))).equals(FILE)).toBe(true);
  expect((await stat(join(folder, sha256))).mode & 0o777).toBe(0o600);
  expect(await readFile(sidecar.auditFile, "utf8")).not.toContain(FILE.subarray(0, 64).toString("base64"));
});

it("uploads a file it keeps, named by its sha256, with the bytes the member approved; an unknown hash sends nothing", async () => {
  const grant = issueGrant({
    member,
    botPublicKey: sidecar.publicKey,
    integration: "filebox",
    manifestHash: registry.manifestHash("filebox") as string,
    access: "write",
    credential: { kind: "pat", token: MEMBER_TOKEN },
    ttlSeconds: 900,
  });
  const botKeys = JSON.parse(await readFile(sidecar.botKeyFile, "utf8")) as KeyPair;
  const payload = openGrant(grant, { bot: botKeys, trustedMembers: [member.publicKey] });
  const run = (args: Record<string, unknown>, confirmation?: string) =>
    httpCall({
      port: sidecar.port ?? 0,
      method: "POST",
      path: "/v1/run",
      headers: { authorization: `Bearer ${callerToken}` },
      body: { grant, op: "files.upload", args, ...(confirmation === undefined ? {} : { confirmation }) },
    });
  const sha256 = createHash("sha256").update(FILE).digest("hex");
  for (const file of [{ sha256 }, { sha256: "0".repeat(64) }]) {
    const args = { path: "/Uploads/copy.bin", file };
    const asked = (await run(args)).json() as Record<string, unknown>;
    expect(asked).toMatchObject({ status: "confirmation_required", confirm: `Upload stored file (sha256 ${file.sha256.slice(0, 12)}) to /Uploads/copy.bin` });
    const confirmation = signConfirmation({ member, grant: payload, op: "files.upload", args, line: String(asked.confirm) });
    const done = (await run(args, confirmation)).json() as Record<string, unknown>;
    if (file.sha256 === sha256) {
      expect(done).toMatchObject({ status: "ok", data: { id: "id:up" } });
      expect(uploads).toHaveLength(1);
      expect(uploads[0]?.equals(FILE)).toBe(true);
    } else {
      expect(done).toMatchObject({ status: "error", error: { code: "invalid_args", message: expect.stringMatching(/not in the sidecar's file folder/) } });
      expect(uploads).toHaveLength(1);
    }
  }
});

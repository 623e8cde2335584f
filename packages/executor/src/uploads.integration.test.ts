import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MAX_FILE_BYTES } from "@eleven-integrations/schema";
import { startFourthReleaseHarness, type FourthReleaseHarness } from "./test-support/fourth-release-harness.js";

let harness: FourthReleaseHarness;
let rawBodies: Buffer[] = [];
const keepRaw = (server: FourthReleaseHarness["server"]) =>
  server.handle((_request, reply, raw) => {
    rawBodies.push(Buffer.isBuffer(raw.body) ? raw.body : Buffer.alloc(0));
    return reply.send({ id: "id:1", name: "a.png" });
  });
beforeAll(async () => {
  harness = await startFourthReleaseHarness((_request, reply) => reply.send({ ok: true }));
});
afterAll(() => harness.close());
beforeEach(() => {
  harness.reset();
  rawBodies = [];
  keepRaw(harness.server);
  keepRaw(harness.content);
});

const credential = { token: "tok_upload_SECRET_1" };
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0x0d, 0x0a]);
const file = (bytes: Buffer = png, extra: Record<string, string> = {}) => ({
  name: "a.png",
  content_type: "image/png",
  base64: bytes.toString("base64"),
  ...extra,
});
const run = (op: string, args: Record<string, unknown>) => harness.executor.run({ integration: "upload", op, args: args as never, credential });

describe("encoding: bytes", () => {
  it("sends the decoded bytes as the body, the file's type as Content-Type and the right Content-Length, to the op's host", async () => {
    const envelope = await run("files.upload", { path: "/Homework/a.png", file: file() });
    expect(envelope.status).toBe("ok");
    const [request] = harness.content.requests;
    expect(request?.headers["content-type"]).toBe("image/png");
    expect(request?.headers["content-length"]).toBe(String(png.length));
    expect(request?.headers["dropbox-api-arg"]).toBe('{"path":"/Homework/a.png","mode":"add"}');
    expect(rawBodies[0]?.equals(png)).toBe(true);
    expect(harness.server.requests).toHaveLength(0);
  });

  it("sends the op's content_type instead of the file's when it declares one", async () => {
    await run("files.put", { file: file() });
    expect(harness.content.requests[0]?.headers["content-type"]).toBe("application/octet-stream");
    expect(rawBodies[0]?.equals(png)).toBe(true);
  });

  it("refuses a file over 8 MiB: invalid_args, nothing sent", async () => {
    const envelope = await run("files.upload", { path: "/a.bin", file: file(Buffer.alloc(MAX_FILE_BYTES + 1)) });
    expect(envelope).toMatchObject({ status: "error", error: { code: "invalid_args", message: expect.stringMatching(/at most 8388608 bytes/) } });
    expect(harness.sent()).toBe(0);
  });

  it("sends a file of exactly 8 MiB whole", async () => {
    const envelope = await run("files.upload", { path: "/a.bin", file: file(Buffer.alloc(MAX_FILE_BYTES, 7)) });
    expect(envelope.status).toBe("ok");
    expect(harness.content.requests[0]?.headers["content-length"]).toBe(String(MAX_FILE_BYTES));
    expect(rawBodies[0]?.length).toBe(MAX_FILE_BYTES);
  });

  it.each([
    ["CR LF after the type", "image/png\r\nX-Evil: 1"],
    ["CR LF inside a parameter", 'text/plain; charset="utf-8\r\nX-Evil: 1"'],
    ["a lone LF in a parameter", "text/plain; a=b\nX-Evil: 1"],
    ["a header after a semicolon", "text/plain; X-Evil: 1"],
  ])("refuses a content_type injecting a header (%s): invalid_args, nothing sent", async (_name, contentType) => {
    const envelope = await run("files.upload", { path: "/a.txt", file: file(png, { content_type: contentType }) });
    expect(envelope).toMatchObject({ status: "error", error: { code: "invalid_args" } });
    expect(harness.sent()).toBe(0);
  });

  it("sends a content_type with well-formed parameters as written", async () => {
    await run("files.upload", { path: "/a.txt", file: file(Buffer.from("hi"), { content_type: 'text/plain; charset="utf-8"' }) });
    expect(harness.content.requests[0]?.headers["content-type"]).toBe('text/plain; charset="utf-8"');
  });

  it("validate accepts a { sha256 } file (the sidecar reads it only when it sends) and still checks the other args", () => {
    const request = { integration: "upload", op: "files.upload", args: { path: "/a.txt", file: { sha256: "a".repeat(64) } } };
    expect(harness.executor.validate(request)).toBeNull();
    expect(harness.executor.validate({ ...request, args: { file: { sha256: "a".repeat(64) } } })).toMatchObject({ error: { code: "invalid_args" } });
    expect(harness.executor.validate({ ...request, args: { path: "/a.txt", file: { sha256: "A".repeat(64) } } })).toMatchObject({
      error: { code: "invalid_args" },
    });
  });

  it("refuses a { sha256 } file the sidecar did not resolve: invalid_args, nothing sent", async () => {
    const envelope = await run("files.upload", { path: "/a.txt", file: { sha256: "a".repeat(64) } });
    expect(envelope).toMatchObject({ status: "error", error: { code: "invalid_args", message: expect.stringMatching(/resolved by the sidecar/) } });
    expect(harness.sent()).toBe(0);
  });
});

/** The boundary a multipart Content-Type names, and the body split at it. */
function parts(contentType: string | undefined, body: Buffer): { boundary: string; parts: string[] } {
  const boundary = /boundary=([^;]+)$/.exec(contentType ?? "")?.[1] ?? "";
  const text = body.toString("latin1");
  expect(text.endsWith(`--${boundary}--\r\n`)).toBe(true);
  return { boundary, parts: text.split(`--${boundary}`).slice(1, -1) };
}

describe("encoding: multipart", () => {
  it("related: the JSON metadata part, then the file part with its type; Content-Length right", async () => {
    const envelope = await run("files.create", { name: "a.png", folder: "root", file: file() });
    expect(envelope.status).toBe("ok");
    const [request] = harness.server.requests;
    expect(request?.url).toBe("/2/upload/files?uploadType=multipart");
    expect(request?.headers["content-type"]).toMatch(/^multipart\/related; boundary=eleven-[0-9a-f]{48}$/);
    const body = rawBodies[0] as Buffer;
    expect(request?.headers["content-length"]).toBe(String(body.length));
    const split = parts(request?.headers["content-type"], body);
    expect(split.parts).toEqual([
      '\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n{"name":"a.png","parents":["root"]}\r\n',
      `\r\nContent-Type: image/png\r\n\r\n${png.toString("latin1")}\r\n`,
    ]);
  });

  it("form-data: a CR LF in the file name cannot start a header line (the name's controls are replaced, RFC 7578 quoting)", async () => {
    // The run-args schema refuses controls in a name first: the value never reaches a header.
    const refused = await run("files.form", { channel: "C1", file: file(png, { name: 'a.png"\r\nX-Evil: 1' }) });
    expect(refused).toMatchObject({ status: "error", error: { code: "invalid_args" } });
    expect(harness.sent()).toBe(0);
    const quoted = await run("files.form", { channel: "C1", file: file(png, { name: 'say "hi" ü.png' }) });
    expect(quoted.status).toBe("ok");
    const [request] = harness.server.requests;
    const split = parts(request?.headers["content-type"], rawBodies[0] as Buffer);
    expect(split.parts[0]).toBe('\r\nContent-Disposition: form-data; name="channel"\r\n\r\nC1\r\n');
    expect(Buffer.from(split.parts[1] as string, "latin1").toString("utf8")).toContain(
      `Content-Disposition: form-data; name="file"; filename="say \\"hi\\" _.png"; filename*=UTF-8''say%20%22hi%22%20%C3%BC.png\r\nContent-Type: image/png\r\n\r\n`,
    );
  });

  it("a field value with CR LF stays inside its part: the boundary is random, so the value cannot close the part", async () => {
    await run("files.form", { channel: 'C1\r\n--x\r\nContent-Disposition: form-data; name="evil"', file: file() });
    const split = parts(harness.server.requests[0]?.headers["content-type"], rawBodies[0] as Buffer);
    expect(split.parts).toHaveLength(2);
    expect(split.parts[0]).toBe('\r\nContent-Disposition: form-data; name="channel"\r\n\r\nC1\r\n--x\r\nContent-Disposition: form-data; name="evil"\r\n');
  });

  it("a file holding a guessed boundary never collides: the boundary is not inside any part", async () => {
    const guess = Buffer.from(`--eleven-${"0".repeat(48)}\r\n--eleven-${"f".repeat(48)}--\r\n`);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await run("files.create", { name: "a.bin", file: file(guess) });
    }
    harness.server.requests.forEach((request, index) => {
      const split = parts(request.headers["content-type"], rawBodies[index] as Buffer);
      expect(split.parts).toHaveLength(2);
      expect(split.parts[1]).toContain(guess.toString("latin1"));
    });
  });
});

import { createLoopbackDispatcher, createTestCertificates } from "@eleven-integrations/test-support";
import type { Dispatcher } from "undici";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createExecutor, type Executor, type RunRequest } from "./create-executor.js";
import { SHAPES_HOST, shapesRegistry } from "./test-support/arg-shapes-registry.js";
import { startTestServer, type TestServer } from "./test-support/test-server.js";

let server: TestServer;
let dispatcher: Dispatcher;
let executor: Executor;
beforeAll(async () => {
  const certificates = await createTestCertificates([SHAPES_HOST]);
  server = await startTestServer(certificates, (_request, reply) => reply.send({ id: "1" }));
  dispatcher = createLoopbackDispatcher(certificates.ca, new Map([[SHAPES_HOST, server.port]]));
  executor = createExecutor({ registry: shapesRegistry(), dispatcher });
});
afterAll(async () => {
  await dispatcher.destroy();
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
});

const credential = { token: "shapes-token" };
const run = (op: string, args: unknown) => executor.run({ integration: "shapes", op, args, credential } as RunRequest);

async function refused(op: string, args: unknown, message: RegExp): Promise<void> {
  const envelope = await run(op, args);
  expect(envelope).toMatchObject({ status: "error", error: { code: "invalid_args", message: expect.stringMatching(message) } });
  expect(server.requests).toHaveLength(0);
}

function sentMessage(): string {
  const body = JSON.parse(server.requests[0]?.body ?? "{}") as { raw: string };
  return Buffer.from(body.raw, "base64url").toString("utf8");
}

describe("list args", () => {
  it("render as a JSON array in a whole leaf and as repeated query keys", async () => {
    expect(await run("issues.label", { labels: ["bug", "help-wanted"], ids: ["7", "-2"], state: "open" })).toMatchObject({ status: "ok" });
    const [request] = server.requests;
    expect(request?.url).toBe("/v1/issues?label=bug&label=help-wanted&state=open");
    expect(JSON.parse(request?.body ?? "")).toEqual({ labels: ["bug", "help-wanted"], ids: [7, -2] });
  });

  it("an empty list sends no query key and an empty array", async () => {
    expect(await run("issues.label", { labels: [] })).toMatchObject({ status: "ok" });
    expect(server.requests[0]?.url).toBe("/v1/issues");
    expect(JSON.parse(server.requests[0]?.body ?? "")).toEqual({ labels: [] });
  });

  it.each([
    ["a string for a list", { labels: "bug" }, /"labels" must be a list/],
    ["more than max_items", { labels: ["a", "b", "c", "d"] }, /"labels" must hold at most 3 items/],
    ["an item that misses the pattern", { labels: ["bug", "x&label=admin"] }, /"labels" item 1 does not match the pattern/],
    ["a non-string item", { labels: ["bug", 1] }, /"labels" item 1 must be a string/],
    ["a nested list", { labels: [["bug"]] }, /"labels" item 0 must be a string/],
    ["an integer item that is not one", { labels: ["a"], ids: ["1e3"] }, /"ids" item 0 must be an integer/],
    ["a list for a one-string arg", { labels: ["a"], state: ["open", "closed"] }, /"state" must be a string/],
  ])("refuses %s, sending nothing", async (_, args, message) => {
    await refused("issues.label", args, message);
  });
});

describe("path args", () => {
  it("span segments, each escaped on its own", async () => {
    expect(await run("files.read", { owner: "octo", path: "docs/read me.md", ref: "main" })).toMatchObject({ status: "ok" });
    expect(server.requests[0]?.url).toBe("/v1/repos/octo/contents/docs/read%20me.md?ref=main");
  });

  it.each([
    ["a .. segment", "docs/../secrets"],
    ["a . segment", "./docs"],
    ["a percent-encoded ..", "docs/%2e%2e/x"],
    ["a double-encoded ..", "docs/%252e%252e/x"],
    ["a full-width ..", "docs/．．/x"],
    ["a backslash", "docs\\..\\x"],
    ["an encoded slash", "docs%2f..%2fx"],
    ["a NUL", "docs/a\u0000b"],
    ["a leading slash", "/etc/passwd"],
    ["a trailing slash", "docs/"],
    ["an empty segment", "docs//x"],
    ["only ..", ".."],
  ])("refuse %s, sending nothing", async (_, path) => {
    await refused("files.read", { owner: "octo", path }, /"path" /);
  });
});

describe("null literals and conditional leaves", () => {
  it("send null as written and a conditional leaf only when its arg equals eq", async () => {
    await run("items.create", { title: "T", visibility: "private" });
    await run("items.create", { title: "T", visibility: "public", due: "tomorrow" });
    await run("items.create", { title: "T" });
    expect(server.requests.map((request) => JSON.parse(request.body))).toEqual([
      { title: "T", parent: null, private: { hidden: true, reason: null }, tags: ["a"] },
      { title: "T", due: "tomorrow", parent: null, tags: ["a", "shared"] },
      { title: "T", parent: null, tags: ["a"] },
    ]);
  });
});

describe("each leaves", () => {
  it("render one element per item of a list arg, and nothing when it is not given", async () => {
    await run("items.create", { title: "T", guests: ["ann@example.com", "bob@example.com"] });
    await run("items.create", { title: "T", guests: [] });
    expect(server.requests.map((request) => (JSON.parse(request.body) as { guests?: unknown }).guests)).toEqual([
      [
        { email: "ann@example.com", optional: true },
        { email: "bob@example.com", optional: true },
      ],
      [],
    ]);
    server.requests.length = 0;
    await refused("items.create", { title: "T", guests: ['x@example.com", "admin": true, "y@example.com'] }, /"guests" item 0 does not match/);
  });
});

describe("rfc2822 messages", () => {
  const mail = { to: ["Ann <ann@example.com>", "bob@example.org"], subject: "Plans", text: "Hi\nsee you" };

  it("builds a MIME message with CRLF lines and puts it, base64url, in the {message} leaf", async () => {
    expect(await run("mail.send", { ...mail, cc: ["carol@example.net"], bcc: ["dave@example.com"], thread_id: "18c2" })).toMatchObject({ status: "ok" });
    const body = JSON.parse(server.requests[0]?.body ?? "") as Record<string, string>;
    expect(body.threadId).toBe("18c2");
    expect(body.raw).toMatch(/^[A-Za-z0-9_-]+$/);
    const message = sentMessage();
    const [head, encodedText] = message.split("\r\n\r\n") as [string, string];
    expect(head.split("\r\n")).toEqual([
      "To: Ann <ann@example.com>, bob@example.org",
      "Cc: carol@example.net",
      "Bcc: dave@example.com",
      "Subject: Plans",
      "MIME-Version: 1.0",
      'Content-Type: text/plain; charset="UTF-8"',
      "Content-Transfer-Encoding: base64",
    ]);
    expect(Buffer.from(encodedText, "base64").toString("utf8")).toBe("Hi\r\nsee you");
    expect(message.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
  });

  it("encodes non-ASCII subjects and names as RFC 2047 words, folded under 78 characters", async () => {
    const subject = "Réunion de l’équipe — ordre du jour pour la semaine prochaine 🎉";
    await run("mail.send", { to: ["Zoë Ünal <zoe@example.com>", "O'Brien, Pat <pat@example.com>"], subject, text: "x" });
    const message = sentMessage();
    const head = message.split("\r\n\r\n")[0] as string;
    for (const line of head.split("\r\n")) expect(line.length).toBeLessThanOrEqual(line.startsWith("To:") ? 998 : 78);
    const subjectLines = head
      .slice(head.indexOf("Subject:"))
      .split("\r\n")
      .filter((line, index) => index === 0 || line.startsWith(" "));
    const words = subjectLines
      .join("")
      .replace(/^Subject: /, "")
      .split(" ");
    expect(words.map((word) => Buffer.from((/^=\?UTF-8\?B\?(.*)\?=$/.exec(word) as RegExpExecArray)[1] as string, "base64").toString("utf8")).join("")).toBe(
      subject,
    );
    expect(head).toContain('"O\'Brien, Pat" <pat@example.com>');
    expect(head).toMatch(/To: =\?UTF-8\?B\?[A-Za-z0-9+/=]+\?= <zoe@example.com>/);
  });

  it("carries In-Reply-To and References for a reply", async () => {
    await run("mail.send", { ...mail, subject: "Re: Plans", in_reply_to: "<a1@mail.example.com>", references: "<a0@mail.example.com> <a1@mail.example.com>" });
    expect(sentMessage()).toContain("In-Reply-To: <a1@mail.example.com>\r\nReferences: <a0@mail.example.com> <a1@mail.example.com>\r\n");
  });

  it.each([
    ["CRLF in the subject", { ...mail, subject: "Hi\r\nBcc: evil@example.com" }, /"subject" must not hold a line break/],
    ["a bare LF in the subject", { ...mail, subject: "Hi\nBcc: evil@example.com" }, /"subject" must not hold a line break/],
    ["a bare CR in the subject", { ...mail, subject: "Hi\rBcc: evil@example.com" }, /"subject" must not hold a line break/],
    ["NUL in the subject", { ...mail, subject: "Hi\u0000" }, /"subject" must not hold/],
    ["a line separator in the subject", { ...mail, subject: "Hi\u2028Bcc: x@example.com" }, /"subject" must not hold/],
    ["CRLF in an address", { ...mail, to: ["ann@example.com\r\nBcc: evil@example.com"] }, /"to" item 0 must not hold a line break/],
    ["two addresses in one item", { ...mail, to: ["ann@example.com, evil@example.com"] }, /"to" item 0 must be an e-mail address/],
    ["a group in one item", { ...mail, to: ["team: evil@example.com;"] }, /"to" item 0 must be an e-mail address/],
    ["a name hiding an address", { ...mail, cc: ["evil@example.com <ann@example.com"] }, /"cc" item 0 must be an e-mail address/],
    ["not an address", { ...mail, bcc: ["nobody"] }, /"bcc" item 0 must be an e-mail address/],
    ["CRLF in In-Reply-To", { ...mail, in_reply_to: "<a@b.c>\r\nBcc: evil@example.com" }, /"in_reply_to" must not hold a line break/],
    ["a bad message id", { ...mail, references: "<a@b.c> not-an-id" }, /"references" must be message ids/],
    ["NUL in the text", { ...mail, text: "a\u0000b" }, /"text" must not hold NUL/],
  ])("refuses %s, sending nothing", async (_, args, message) => {
    await refused("mail.send", args, message);
  });

  it("a body line that looks like a header stays in the body", async () => {
    await run("mail.send", { ...mail, text: "\r\nBcc: evil@example.com\r\n" });
    const message = sentMessage();
    const [head, encodedText] = message.split("\r\n\r\n") as [string, string];
    expect(head).not.toContain("evil");
    expect(Buffer.from(encodedText, "base64").toString("utf8")).toBe("\r\nBcc: evil@example.com\r\n");
  });
});

describe("file args", () => {
  const file = { name: "report.pdf", content_type: "application/pdf", base64: Buffer.from("%PDF-1.7").toString("base64") };

  it("take { name, content_type, base64 } or { sha256 }", async () => {
    expect(executor.validate({ integration: "shapes", op: "files.upload", args: { file } })).toBeNull();
    expect(executor.validate({ integration: "shapes", op: "files.upload", args: { file: { sha256: "ab".repeat(32) } } })).toBeNull();
  });

  it.each([
    ["a string", "report.pdf"],
    ["a name with a path", { ...file, name: "../../etc/passwd" }],
    ["a name with CRLF", { ...file, name: "a\r\nb.pdf" }],
    ["a content type with CRLF", { ...file, content_type: "application/pdf\r\nX-Evil: 1" }],
    ["base64url instead of base64", { ...file, base64: "-_-_" }],
    ["an extra key", { ...file, url: "https://evil.example" }],
    ["an upper-case digest", { sha256: "AB".repeat(32) }],
    ["more than 8 MiB", { ...file, base64: "A".repeat(Math.ceil((8 * 1024 * 1024 + 1) / 3) * 4) }],
  ])("refuse %s", async (_, value) => {
    await refused("files.upload", { file: value }, /"file" must be/);
  });
});

import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { argsDigest } from "./digest.js";
import { confirmDetails, renderConfirm } from "./render-confirm.js";
import { sha256Hex } from "./sha256.js";
import { ready } from "./sodium.js";

beforeAll(async () => {
  await ready();
});

describe("a list arg on the chip", () => {
  it("shows every item when they fit", () => {
    expect(renderConfirm("Send to {to}", { to: ["ann@example.com", "bob@example.org"] })).toBe("Send to ann@example.com, bob@example.org");
  });

  it("shows the first items and 'and N more', N exact, within the value's share of the line", () => {
    const to = Array.from({ length: 40 }, (_, index) => `person${index}@example.com`);
    const line = renderConfirm("Send to {to}", { to });
    const shown = line.slice("Send to ".length);
    const match = /^(.*) and (\d+) more$/.exec(shown) as RegExpExecArray;
    const items = (match[1] as string).split(", ");
    expect(items).toEqual(to.slice(0, items.length));
    expect(items.length + Number(match[2])).toBe(40);
    expect(Array.from(shown).length).toBeLessThanOrEqual(120);
    expect(confirmDetails("Send to {to}", { to })).toEqual([{ name: "to", value: to.join(", "), flags: ["shortened"] }]);
  });

  it("cuts a lone long first item and still counts the rest", () => {
    const line = renderConfirm("Label {labels}", { labels: ["x".repeat(300), "b", "c"] });
    expect(line).toMatch(/^Label x+… and 2 more$/);
  });

  it("neutralises each item: a hidden character or a quote in an item cannot pose as the template", () => {
    const line = renderConfirm("Invite “{attendees}”", { attendees: ["a\u202Eb@example.com", "c”, and everyone"] });
    expect(line).not.toContain("\u202E");
    expect(line).toBe("Invite “a\uFFFDb@example.com, c\uFFFD, and everyone”");
  });
});

describe("a file arg on the chip", () => {
  const bytes = Buffer.from("quarterly numbers\n");
  const digest = createHash("sha256").update(bytes).digest("hex");

  it("shows the name, the decoded size and the first 12 hex of its SHA-256", () => {
    const file = { name: "report.csv", content_type: "text/csv", base64: bytes.toString("base64") };
    expect(renderConfirm("Upload {file}", { file })).toBe(`Upload report.csv (18 B, sha256 ${digest.slice(0, 12)})`);
  });

  it("cuts a long name but never the size and digest", () => {
    const file = { name: `${"n".repeat(400)}.pdf`, content_type: "application/pdf", base64: bytes.toString("base64") };
    expect(renderConfirm("Upload {file}", { file })).toMatch(new RegExp(`^Upload n+… \\(18 B, sha256 ${digest.slice(0, 12)}\\)$`));
  });

  it("shows a stored file by its digest", () => {
    expect(renderConfirm("Upload {file}", { file: { sha256: digest } })).toBe(`Upload stored file (sha256 ${digest.slice(0, 12)})`);
  });

  it("hashes like node's SHA-256, across block boundaries", () => {
    for (const length of [0, 1, 55, 56, 63, 64, 65, 1000]) {
      const data = Buffer.alloc(length, 0x61);
      expect(sha256Hex(data)).toBe(createHash("sha256").update(data).digest("hex"));
    }
  });
});

describe("the args digest of lists and files", () => {
  it("is RFC 8785 over the whole value: a list is not its joined text, key order in a file does not matter", () => {
    expect(argsDigest({ to: ["a", "b"] })).not.toBe(argsDigest({ to: "a,b" }));
    expect(argsDigest({ to: ["a", "b"] })).not.toBe(argsDigest({ to: ["b", "a"] }));
    expect(argsDigest({ file: { name: "a", content_type: "text/plain", base64: "aGk=" } })).toBe(
      argsDigest({ file: { base64: "aGk=", content_type: "text/plain", name: "a" } }),
    );
  });
});

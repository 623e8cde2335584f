import crypto, { createHash, createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "@eleven-integrations/schema";
import { PageSigner, sha256Of, type PageBinding } from "./page-token.js";

/** The token as RFC 2104 HMAC-SHA256 via node's createHmac defines it: the MAC the signer's precomputed states must give. */
function reference(key: Buffer, binding: PageBinding, cursor: string): string {
  const prefix = (length: number) => {
    const bytes = Buffer.alloc(4);
    bytes.writeUInt32BE(length);
    return bytes;
  };
  const bound = Object.fromEntries(Object.entries(binding.args).filter(([name]) => name !== binding.cursorArg));
  const hmac = createHmac("sha256", key);
  for (const field of [
    "eleven.page.v1",
    binding.integration,
    binding.op,
    binding.manifestHash,
    createHash("sha256").update(canonicalJson(bound)).digest("hex"),
  ]) {
    const bytes = Buffer.from(field, "utf8");
    hmac.update(prefix(bytes.length)).update(bytes);
  }
  const cursorBytes = Buffer.from(cursor, "utf8");
  const mac = hmac.update(prefix(cursorBytes.length)).update(cursorBytes).digest();
  return `ep1.${cursorBytes.toString("base64url")}.${mac.toString("base64url")}`;
}

const binding = (args: Record<string, string>, op = "repos.list"): PageBinding => ({
  integration: "github",
  op,
  manifestHash: "ab".repeat(32),
  args,
  cursorArg: "page",
});

describe("PageSigner's precomputed HMAC states", () => {
  it.each([
    ["a 32-byte key", Buffer.alloc(32, 7)],
    ["a 64-byte key (one block)", Buffer.alloc(64, 9)],
    ["a 100-byte key (hashed first, as RFC 2104 says)", Buffer.alloc(100, 3)],
  ])("give createHmac's MAC byte for byte with %s, for every binding and cursor, again and again", (_name, key) => {
    const signer = new PageSigner(key);
    const bindings = [
      binding({ sort: "updated" }),
      binding({ sort: "created", page: "4" }),
      binding({}),
      binding({ sort: "updated" }, "issues.list"),
      // Args whose names and values would run together if the cache key did not delimit them.
      binding({ a: "bc" }),
      binding({ a: "b1:c" }),
      binding({ a: "b", c: "" }),
      binding({ a: "1:b" }),
      binding({ a: "", b: "" }),
      // Longer than the signer's scratch buffer: the inner message gets a buffer of its own.
      binding({ q: "é".repeat(40) }, `long.${"x".repeat(2100)}`),
    ];
    for (let round = 0; round < 3; round += 1) {
      for (const [index, each] of bindings.entries()) {
        const cursor = `cursor-${round}-${index}-é`;
        expect(signer.issue(each, cursor)).toBe(reference(key, each, cursor));
      }
    }
  });

  it("keeps the states of different bindings apart: a token opens only for its own op and args, also once cached", () => {
    const signer = new PageSigner(Buffer.alloc(32, 1));
    const token = signer.issue(binding({ sort: "updated" }), "2") as string;
    expect(signer.open(token, binding({ sort: "updated" }))).toEqual({ ok: true, cursor: "2" });
    expect(signer.open(token, binding({ sort: "created" })).ok).toBe(false);
    expect(signer.open(token, binding({ sort: "updated" }, "issues.list")).ok).toBe(false);
    // The cursor arg itself is not bound: the next page's args carry it.
    expect(signer.open(token, binding({ sort: "updated", page: "9" }))).toEqual({ ok: true, cursor: "2" });
  });

  it("stays right past its cache bound", () => {
    const key = Buffer.alloc(32, 5);
    const signer = new PageSigner(key);
    for (let index = 0; index < 600; index += 1) {
      const each = binding({ q: String(index) });
      expect(signer.issue(each, "c")).toBe(reference(key, each, "c"));
    }
  });
});

describe("sha256Of", () => {
  it("gives createHash's digest with crypto.hash and, on a Node without it, through createHash", () => {
    const oneShot = (crypto as { hash?: Parameters<typeof sha256Of>[0] }).hash;
    for (const length of [0, 1, 55, 56, 63, 64, 65, 200, 1000]) {
      const message = Buffer.alloc(length, length % 251);
      const expected = createHash("sha256").update(message).digest();
      expect(sha256Of(undefined)(message)).toEqual(expected);
      if (oneShot !== undefined) expect(sha256Of(oneShot)(message)).toEqual(expected);
    }
  });
});

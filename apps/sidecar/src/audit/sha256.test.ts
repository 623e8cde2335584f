import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sha256Bytes, sha256Text } from "./sha256.js";

describe("sha256", () => {
  it("is createHash's SHA-256 of the UTF-8 bytes, in every encoding it offers", () => {
    for (const text of ["", "Bearer token", "é\u{1F600}\n", "x".repeat(4096)]) {
      const expected = createHash("sha256").update(text, "utf8").digest();
      expect(sha256Bytes(text).equals(expected)).toBe(true);
      expect(sha256Text(text, "hex")).toBe(expected.toString("hex"));
      expect(sha256Text(text, "base64")).toBe(expected.toString("base64"));
      expect(sha256Text(Buffer.from(text, "utf8"), "hex")).toBe(expected.toString("hex"));
    }
  });
});

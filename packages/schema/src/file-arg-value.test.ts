import { describe, expect, it } from "vitest";
import { MAX_FILE_BYTES as MAX_FILE_ARG_BYTES } from "./file-value.js";
import { fileArgValueSchema } from "./run-args.js";

describe("a file arg's value", () => {
  it("is a file (name, content_type, base64) or the SHA-256 of one the sidecar keeps", () => {
    expect(fileArgValueSchema.safeParse({ name: "Matrices.txt", content_type: "text/plain", base64: "MSAyCjMgNAo=" }).success).toBe(true);
    expect(fileArgValueSchema.safeParse({ sha256: "a".repeat(64) }).success).toBe(true);
    const largest = "A".repeat(Math.ceil(MAX_FILE_ARG_BYTES / 3) * 4);
    expect(fileArgValueSchema.safeParse({ name: "big.bin", content_type: "application/octet-stream", base64: largest }).success).toBe(true);
  });

  it.each([
    ["a name with a slash", { name: "../x", content_type: "text/plain", base64: "" }],
    ["a name with CR LF", { name: "a\r\nb", content_type: "text/plain", base64: "" }],
    ["a content type with parameters", { name: "a", content_type: "text/plain; charset=x\r\n", base64: "" }],
    ["base64url", { name: "a", content_type: "text/plain", base64: "-_-_" }],
    ["base64 of a wrong length", { name: "a", content_type: "text/plain", base64: "QUJD=" }],
    ["padding inside", { name: "a", content_type: "text/plain", base64: "QQ==QUJD" }],
    ["more than 8 MiB", { name: "a", content_type: "text/plain", base64: "A".repeat(Math.ceil(MAX_FILE_ARG_BYTES / 3) * 4 + 4) }],
    ["both shapes at once", { name: "a", content_type: "text/plain", base64: "", sha256: "a".repeat(64) }],
    ["an uppercase hash", { sha256: "A".repeat(64) }],
    ["a short hash", { sha256: "a".repeat(63) }],
  ])("refuses %s", (_name, value) => {
    expect(fileArgValueSchema.safeParse(value).success).toBe(false);
  });
});

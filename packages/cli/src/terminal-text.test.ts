import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { main } from "./main.js";
import type { CommandIo } from "./io.js";
import { escapeJson, escapeText } from "./terminal-text.js";

const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Default_Ignorable_Code_Point}]/u;

const text = fc
  .array(
    fc.oneof(
      fc.integer({ min: 0, max: 0x10ffff }).map((point) => String.fromCodePoint(point)),
      fc.constantFrom("\u001b", "\u009b", "\u0007", "\r", "\n", "\u202E", "\u2066", "\u200B", "\uFEFF", "\u2028", "\uD800", "\u{E0041}", "a", "é"),
    ),
    { maxLength: 60 },
  )
  .map((points) => points.join(""));

describe("escapeText", () => {
  it("prints ESC, CSI, BEL, CR and bidi controls as visible escapes", () => {
    expect(escapeText("\u001b[2J\u009b31m\u0007x\ry\u202Ez")).toBe("\\u{1B}[2J\\u{9B}31m\\u{7}x\\u{D}y\\u{202E}z");
    expect(escapeText("Créer “x” — 🚀 שלום")).toBe("Créer “x” — 🚀 שלום");
  });

  it("never lets an unprintable character through (property)", () => {
    fc.assert(
      fc.property(text, (value) => {
        expect(UNPRINTABLE.test(escapeText(value))).toBe(false);
      }),
    );
  });
});

describe("escapeJson", () => {
  it("stays valid JSON that parses back to the same value, with nothing unprintable but its own line breaks (property)", () => {
    fc.assert(
      fc.property(text, text, (key, value) => {
        const json = escapeJson({ [key]: [value, { value }] });
        expect(JSON.parse(json)).toEqual({ [key]: [value, { value }] });
        expect(UNPRINTABLE.test(json.replace(/\n/g, ""))).toBe(false);
      }),
    );
  });
});

describe("the terminal escape in a manifest label", () => {
  const manifest = {
    schema: 1,
    id: "acme",
    name: "Acme",
    category: "development",
    auth: { kind: "pat", base: "https://api.acme.example", authorization: "Bearer", pat_help: "https://acme.example/tokens" },
    ops: [{ id: "things.list", label: "List things\u001b[2J\u001b]0;owned\u0007\u009b1;1H", access: "read", method: "GET", path: "/things" }],
  };

  it("is refused at load, and validate reports it without ever printing the escape", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cli-escape-"));
    try {
      await writeFile(join(dir, "acme.json"), JSON.stringify(manifest));
      const out: string[] = [];
      const err: string[] = [];
      const io: CommandIo = { stdout: (chunk) => void out.push(chunk), stderr: (chunk) => void err.push(chunk), env: {}, cwd: dir };
      expect(await main(["validate", dir], io)).toBe(1);
      expect(err.join("")).toContain("acme.json: ops[0].label: holds U+001B (a control character)");
      expect(err.join("")).not.toMatch(/[\u001b\u0007\u009b]/);
      for (const command of [
        ["list", "--dir", dir],
        ["show", "acme", "--dir", dir],
      ]) {
        err.length = 0;
        expect(await main(command, io), command[0]).toBe(1);
        expect(err.join(""), command[0]).toContain("U+001B");
        expect(err.join(""), command[0]).not.toMatch(/[\u001b\u0007\u009b]/);
      }
      expect(out.join("")).not.toMatch(/[\u001b\u0007\u009b]/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("an unknown command or option quoting an escape is printed escaped", async () => {
    const err: string[] = [];
    const io: CommandIo = { stdout: () => undefined, stderr: (chunk) => void err.push(chunk), env: {}, cwd: tmpdir() };
    expect(await main(["\u001b[31mred"], io)).toBe(2);
    expect(err.join("")).toContain('unknown command "\\u{1B}[31mred"');
    expect(err.join("")).not.toContain("\u001b");
  });
});

describe("a provider's OpenAPI description carrying terminal escapes", () => {
  it("openapi check prints its report (text and --json) with every escape shown, never raw", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cli-openapi-escape-"));
    try {
      const trick = "x\u001b[2J\u009b1;1H\u202Egnirts";
      const spec = {
        openapi: "3.0.3",
        info: { title: "Evil", version: "1" },
        servers: [{ url: "https://api.evil.example" }],
        paths: {
          "/things": {
            get: {
              operationId: "listThings",
              parameters: [{ name: trick, in: "query", required: true, schema: { type: "string" } }],
              responses: {
                "200": {
                  description: "ok",
                  content: { "application/json": { schema: { type: "array", items: { type: "object", properties: { id: { type: "string" } } } } } },
                },
              },
            },
          },
        },
      };
      const manifest = {
        schema: 1,
        id: "evil",
        name: "Evil",
        category: "testing",
        auth: { kind: "pat", base: "https://api.evil.example", authorization: "Bearer", pat_help: "https://evil.example/tokens" },
        ops: [{ id: "things.list", label: "List things", access: "read", method: "GET", path: "/things", pick: { fields: ["id"] } }],
      };
      await writeFile(join(dir, "spec.json"), JSON.stringify(spec));
      await writeFile(join(dir, "evil.json"), JSON.stringify(manifest));
      const out: string[] = [];
      const io: CommandIo = { stdout: (chunk) => void out.push(chunk), stderr: (chunk) => void out.push(chunk), env: {}, cwd: dir };
      for (const json of [[], ["--json"]]) {
        out.length = 0;
        expect(await main(["openapi", "check", join(dir, "evil.json"), "--spec", join(dir, "spec.json"), ...json], io)).toBe(1);
        const printed = out.join("");
        expect(printed).toMatch(/2J/);
        expect(printed).not.toMatch(/[\u001b\u009b\u202e]/);
      }
      expect(JSON.parse(out.join("")).ok).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { runCommand } from "./declarations/bot.js";
import { AUDIENCES, COMMANDS } from "./declarations/commands.js";
import { isSwitch } from "./declarations/declare.js";
import { parseCommandLine } from "./declarations/parse.js";
import type { CommandIo } from "./io.js";
import { main, USAGE } from "./main.js";

function capture(env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIo = { stdout: (text) => void out.push(text), stderr: (text) => void err.push(text), env, cwd: process.cwd() };
  return { io, out, err };
}

describe("each command is declared once, and the help is generated from the declarations", () => {
  it("lists every declared command under the heading of who runs it, in that order", () => {
    const headings = AUDIENCES.map(({ heading }) => USAGE.indexOf(`${heading}:`));
    expect(headings.every((at) => at > 0)).toBe(true);
    expect([...headings].sort((a, b) => a - b)).toEqual(headings);
    for (const command of COMMANDS) {
      const at =
        USAGE.indexOf(`\n  ${command.words.join(" ")} `) === -1
          ? USAGE.indexOf(`\n  ${command.words.join(" ")}\n`)
          : USAGE.indexOf(`\n  ${command.words.join(" ")} `);
      const group = AUDIENCES.findIndex(({ audience }) => audience === command.audience);
      expect(at, command.words.join(" ")).toBeGreaterThan(headings[group] as number);
      if (group + 1 < headings.length) expect(at, command.words.join(" ")).toBeLessThan(headings[group + 1] as number);
    }
  });

  it("gives every command a summary and every flag its help", () => {
    for (const command of COMMANDS) {
      expect(command.summary, command.words.join(" ")).toMatch(/\S/);
      for (const [name, flag] of Object.entries(command.flags)) expect(flag.help, `${command.words.join(" ")} --${name}`).toMatch(/\S/);
    }
  });

  it.each([["grant"], ["confirm"]])("documents --dir on %s", async (name) => {
    const { io, out } = capture();
    expect(await main([name, "--help"], io)).toBe(0);
    expect(out.join("")).toMatch(/--dir <folder>\s+the manifests to read/);
    expect(USAGE).toMatch(new RegExp(`\\n  ${name} [^\\n]*(\\n      [^\\n]*)*\\[--dir <folder>\\]`));
  });

  it("prints a command's flags with their defaults for `<command> --help` and `help <command>`", async () => {
    const first = capture();
    expect(await main(["grant", "--help"], first.io)).toBe(0);
    const text = first.out.join("");
    expect(text).toMatch(/^usage: integrations grant --member <file>/);
    expect(text).toMatch(/--kind <pat\|oauth>\s+what the token is \(default: pat\)/);
    expect(text).toMatch(/--token-env <name>[\s\S]*\(default:\s+INTEGRATION_TOKEN\)/);
    const second = capture();
    expect(await main(["help", "grant"], second.io)).toBe(0);
    expect(second.out.join("")).toBe(text);
    const sub = capture();
    expect(await main(["registry", "sign", "--help"], sub.io)).toBe(0);
    expect(sub.out.join("")).toMatch(/--sequence <n>\s+the release's sequence number[\s\S]*\(required\)/);
  });

  it("answers a usage error with the command's own help", async () => {
    const { io, err } = capture();
    expect(await main(["revoke", "--member", "m.json"], io)).toBe(2);
    expect(err.join("")).toMatch(/^integrations: --grant is required\n\nusage: integrations revoke --member <file> --grant <@file\|->/);
  });

  it("names the subcommands of a family given none or an unknown one", async () => {
    const none = capture();
    expect(await main(["openapi"], none.io)).toBe(2);
    expect(none.err.join("")).toContain("openapi needs a subcommand: check or import");
    const unknown = capture();
    expect(await main(["graphql", "lint"], unknown.io)).toBe(2);
    expect(unknown.err.join("")).toContain('unknown graphql subcommand "lint"');
  });
});

describe("parseCommandLine", () => {
  it("fills in defaults, the environment's among them, and keeps every value of a repeatable flag", () => {
    const parsed = parseCommandLine(runCommand, ["github", "issues.list", "--grant=@g", "--arg", "a=1", "--arg", "b=2"], {
      ELEVEN_SIDECAR: "unix:/run/s.sock",
      SIDECAR_HOME: "/srv/bot",
    });
    expect(parsed).toEqual({
      help: false,
      input: {
        positionals: ["github", "issues.list"],
        flags: {
          grant: "@g",
          arg: ["a=1", "b=2"],
          confirmation: undefined,
          page: undefined,
          sidecar: "unix:/run/s.sock",
          "caller-token-file": "/srv/bot/caller-token",
        },
      },
    });
  });

  it("refuses a single flag given twice, a missing value, an unknown flag and a wrong number of positionals", () => {
    expect(() => parseCommandLine(runCommand, ["a", "b", "--grant", "@g", "--grant", "@h"], {})).toThrow("--grant is given more than once");
    expect(() => parseCommandLine(runCommand, ["a", "b", "--grant"], {})).toThrow("--grant needs a value");
    expect(() => parseCommandLine(runCommand, ["a", "b", "--grant", "@g", "--colour", "red"], {})).toThrow("unknown option --colour");
    expect(() => parseCommandLine(runCommand, ["a", "--grant", "@g"], {})).toThrow("run takes <integration> <op>");
  });

  it("takes a switch without a value, and --help anywhere among the flags", () => {
    const search = COMMANDS.find((command) => command.words[0] === "search");
    if (search === undefined) throw new Error("no search command");
    const parsed = parseCommandLine(search, ["issues", "--json", "open"], {});
    expect(parsed.help === false && parsed.input.positionals).toEqual(["issues", "open"]);
    expect(parsed.help === false && parsed.input.flags["json"]).toBe(true);
    expect(parseCommandLine(search, ["issues", "--help", "--limit"], {})).toEqual({ help: true });
    expect(Object.values(search.flags).filter(isSwitch)).toHaveLength(1);
  });
});

describe("start-up", () => {
  it("`integrations --help` loads the command line's own declarations only: no MCP SDK, GraphQL, OpenAPI, search, loader or undici code", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cli-imports-"));
    try {
      const record = join(dir, "imports.txt");
      const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
      const hooks = fileURLToPath(new URL("./__fixtures__/record-imports.mjs", import.meta.url));
      const { stdout } = await promisify(execFile)(process.execPath, ["--import", hooks, bin, "--help"], {
        env: { ...process.env, RECORD_IMPORTS_FILE: record },
      });
      expect(stdout).toContain("For a member");
      const loaded = (await readFile(record, "utf8")).split("\n").filter((url) => url !== "");
      expect(loaded.some((url) => url.endsWith("/dist/main.js"))).toBe(true);
      const foreign = loaded.filter(
        (url) =>
          url.includes("node_modules") ||
          url.includes("/packages/search/") ||
          url.includes("/packages/loader/") ||
          /\/dist\/(commands|mcp|openapi|graphql)\//.test(url),
      );
      expect(foreign).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("`integrations run` loads the run command's code and not the others'", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cli-imports-"));
    try {
      const record = join(dir, "imports.txt");
      const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
      const hooks = fileURLToPath(new URL("./__fixtures__/record-imports.mjs", import.meta.url));
      const refused = await promisify(execFile)(
        process.execPath,
        ["--import", hooks, bin, "run", "github", "issues.list", "--grant", "@/nonexistent", "--sidecar", "unix:/nonexistent.sock"],
        {
          env: { ...process.env, RECORD_IMPORTS_FILE: record },
        },
      ).catch((error: { code?: number }) => error);
      expect(refused).toHaveProperty("code");
      const loaded = (await readFile(record, "utf8")).split("\n");
      expect(loaded.some((url) => url.endsWith("/dist/commands/run.js"))).toBe(true);
      expect(loaded.filter((url) => /@modelcontextprotocol|graphql|json-schema-ref-parser|\/dist\/commands\/(mcp|search|grant)\.js/.test(url))).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

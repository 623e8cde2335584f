import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { generateBotKeys, issueGrant, openGrant, ready, renderConfirm, ReplayCache, verifyConfirmation, type Grant } from "@eleven-integrations/grants";
import { loadRegistry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";
import { main } from "./main.js";
import type { CommandIo } from "./io.js";

// Google Docs documents.append_text declares a preview (documents.get's title).
const registry = loadRegistry(manifestFiles);
const ARGS = { document_id: "195j9eDD3ccgjQRttHhJPymLJUCOUjs-jmwTrekvdjFE", text: "Action items: ship it" };
const CONFIRM = renderConfirm(registry.operation("google-docs", "documents.append_text")?.confirm as string, ARGS);
const PREVIEW = "“Quarterly plan”";

let dir: string;
let out: string[];
let err: string[];
let io: CommandIo;
let memberFile: string;
let grant: Grant;

beforeAll(() => ready());
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cli-preview-"));
  out = [];
  err = [];
  io = { stdout: (text) => void out.push(text), stderr: (text) => void err.push(text), env: {}, cwd: dir };
  memberFile = join(dir, "member.json");
  expect(await main(["keys", "member", "--out", memberFile], io)).toBe(0);
  const member = JSON.parse(await readFile(memberFile, "utf8")) as { publicKey: string; secretKey: string };
  const bot = generateBotKeys();
  const sealed = issueGrant({
    member: { publicKey: member.publicKey, secretKey: member.secretKey },
    botPublicKey: bot.publicKey,
    integration: "google-docs",
    manifestHash: registry.manifestHash("google-docs") as string,
    access: "write",
    credential: { kind: "oauth", token: "ya29.test" },
    ttlSeconds: 600,
  });
  grant = openGrant(sealed, { bot, trustedMembers: [member.publicKey] });
  out.length = 0;
  err.length = 0;
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const argv = (...more: string[]) => [
  "confirm",
  "--member",
  memberFile,
  "--gid",
  grant.gid,
  "google-docs",
  "documents.append_text",
  "--arg",
  `document_id=${ARGS.document_id}`,
  "--arg",
  `text=${ARGS.text}`,
  ...more,
];
const verifies = (token: string, line: string) => () =>
  verifyConfirmation(token, { grant, op: "documents.append_text", args: ARGS, line, replay: new ReplayCache() });

describe("integrations confirm --preview", () => {
  it("shows the preview before it asks and signs the confirm line, a line feed and the preview", async () => {
    const file = join(dir, "preview.txt");
    await writeFile(file, `${PREVIEW}\n`);
    const seen: string[] = [];
    expect(
      await main(argv("--preview", `@${file}`), {
        ...io,
        ask: async () => {
          seen.push(err.join(""));
          return "y";
        },
      }),
    ).toBe(0);
    expect(seen[0]).toContain(`will run as:\n\n  ${CONFIRM}\n\nIt touches, as the provider shows it now:\n\n  ${PREVIEW}\n`);
    const token = out.join("").trim();
    expect(verifies(token, `${CONFIRM}\n${PREVIEW}`)).not.toThrow();
    expect(verifies(token, CONFIRM)).toThrow(/another confirm line/);
  });

  it("reads the preview from standard input with -, keeping its own whitespace", async () => {
    const preview = "“ Spaced  title ”";
    expect(await main(argv("--preview", "-", "--yes"), { ...io, readStdin: async () => `${preview}\r\n` })).toBe(0);
    expect(verifies(out.join("").trim(), `${CONFIRM}\n${preview}`)).not.toThrow();
  });

  it("escapes a preview's control characters on the terminal", async () => {
    expect(await main(argv("--preview", "-", "--yes"), { ...io, readStdin: async () => "“x\u001b[2J”" })).toBe(0);
    expect(err.join("")).not.toContain("\u001b");
  });

  it.each([
    ["no --preview for a write that declares one", [], /shows what it touches: pass --preview/],
    ["a literal preview instead of @file or -", ["--preview", PREVIEW], /--preview takes @file or -/],
    ["a preview of two lines", ["--preview", "-"], /a preview is one line/],
  ])("signs nothing for %s", async (_name, more, message) => {
    await expect(main(argv(...more, "--yes"), { ...io, readStdin: async () => "“a”\n“b”" })).resolves.toBe(2);
    expect(out).toEqual([]);
    expect(err.join("")).toMatch(message);
  });

  it("refuses --preview for a write that declares none", async () => {
    const code = await main(
      [
        "confirm",
        "--member",
        memberFile,
        "--gid",
        grant.gid,
        "github",
        "issues.comment",
        "--arg",
        "owner=octocat",
        "--arg",
        "repo=hello-world",
        "--arg",
        "issue_number=7",
        "--arg",
        "body=hi",
        "--preview",
        "-",
        "--yes",
      ],
      { ...io, readStdin: async () => PREVIEW },
    );
    expect(code).toBe(2);
    expect(err.join("")).toMatch(/declares no preview/);
    expect(out).toEqual([]);
  });
});

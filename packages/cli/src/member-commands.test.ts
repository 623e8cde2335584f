import { mkdtemp, readFile, rm, stat, chmod } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { argsDigest, generateBotKeys, openGrant, ready, renderConfirm, ReplayCache, verifyConfirmation } from "@eleven-integrations/grants";
import { loadRegistry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";
import { main } from "./main.js";
import type { CommandIo } from "./io.js";

const TOKEN = "ghp_test_token_never_printed_123";
const registry = loadRegistry(manifestFiles);

let dir: string;
let out: string[];
let err: string[];
let io: CommandIo;
beforeAll(() => ready());
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cli-keys-"));
  out = [];
  err = [];
  io = { stdout: (text) => void out.push(text), stderr: (text) => void err.push(text), env: { GITHUB_TOKEN: TOKEN }, cwd: dir };
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function memberKeyFile(): Promise<{ file: string; publicKey: string }> {
  const file = join(dir, "member.json");
  expect(await main(["keys", "member", "--out", file], io)).toBe(0);
  const publicKey = out.join("").trim();
  out.length = 0;
  err.length = 0;
  return { file, publicKey };
}

describe("integrations keys", () => {
  it("writes a 0600 key file, prints only the public key, and never overwrites", async () => {
    const { file, publicKey } = await memberKeyFile();
    expect(publicKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(await readFile(file, "utf8"));
    expect(saved).toMatchObject({ kind: "member", publicKey });
    expect(await main(["keys", "member", "--out", file], io)).toBe(2);
    expect(err.join("")).toContain("not overwriting");
  });

  it("refuses to run without --out or with an unknown kind", async () => {
    expect(await main(["keys", "bot"], io)).toBe(2);
    expect(await main(["keys", "admin", "--out", join(dir, "x")], io)).toBe(2);
  });
});

describe("integrations grant", () => {
  it("seals a grant to the bot with the manifest hash, reading the token from the environment", async () => {
    const member = await memberKeyFile();
    const bot = generateBotKeys();
    const code = await main(
      ["grant", "--member", member.file, "--bot", bot.publicKey, "--integration", "github", "--access", "read", "--token-env", "GITHUB_TOKEN", "--ttl", "600"],
      io,
    );
    expect(code).toBe(0);
    const sealed = out.join("").trim();
    expect(sealed.startsWith("eg1.")).toBe(true);
    const grant = openGrant(sealed, { bot, trustedMembers: [member.publicKey] });
    expect(grant).toMatchObject({ integration: "github", access: "read", manifest_hash: registry.manifestHash("github"), cred: { kind: "pat", token: TOKEN } });
    expect(grant.exp - grant.iat).toBe(600);
    expect(err.join("") + out.join("")).not.toContain(TOKEN);
  });

  it("sets the account the token acts as with --account <id:name>, and refuses one without both halves", async () => {
    const member = await memberKeyFile();
    const bot = generateBotKeys();
    const base = ["grant", "--member", member.file, "--bot", bot.publicKey, "--integration", "github", "--access", "read", "--token-env", "GITHUB_TOKEN"];
    expect(await main([...base, "--account", "583231:octocat:work"], io)).toBe(0);
    const grant = openGrant(out.join("").trim(), { bot, trustedMembers: [member.publicKey] });
    expect(grant.account).toEqual({ id: "583231", name: "octocat:work" });
    expect(err.join("")).toContain("as octocat:work (583231)");
    for (const bad of ["583231", ":octocat", "583231:"]) {
      err.length = 0;
      expect(await main([...base, "--account", bad], io)).toBe(2);
      expect(err.join("")).toContain("--account must be <id>:<name>");
    }
  });

  it("issues a Twilio grant whose Account SID is upper-case AC and 32 hex (the manifest's own pattern), and refuses one off it", async () => {
    const member = await memberKeyFile();
    const bot = generateBotKeys();
    const sid = `AC${"0123456789abcdef".repeat(2)}`;
    const base = ["grant", "--member", member.file, "--bot", bot.publicKey, "--integration", "twilio", "--access", "read", "--token-env", "GITHUB_TOKEN"];
    expect(await main([...base, "--connection", `account_sid=${sid}`], io)).toBe(0);
    const grant = openGrant(out.join("").trim(), { bot, trustedMembers: [member.publicKey] });
    expect(grant.connection).toEqual({ account_sid: sid });
    out.length = 0;
    for (const bad of [[`account_sid=${sid.toLowerCase()}`], ["account_sid=AC123"], [`account_sid=${sid}`, "region=us1"], []]) {
      err.length = 0;
      expect(await main([...base, ...bad.flatMap((value) => ["--connection", value])], io), bad.join(" ")).toBe(2);
      expect(err.join("")).toMatch(/--connection (account_sid|region) /);
    }
    expect(err.join("")).toContain("Account SID");
    expect(out).toEqual([]);
  });

  it("refuses a missing token, a write op in a read grant, an unknown op, and a key file others can read", async () => {
    const member = await memberKeyFile();
    const bot = generateBotKeys().publicKey;
    const base = ["grant", "--member", member.file, "--bot", bot, "--integration", "github"];
    expect(await main([...base, "--access", "read", "--token-env", "NOPE"], io)).toBe(2);
    expect(err.join("")).toContain("environment variable NOPE");
    const writeOp = registry.get("github")?.ops.find((op) => op.access === "write")?.id as string;
    expect(await main([...base, "--access", "read", "--op", writeOp, "--token-env", "GITHUB_TOKEN"], io)).toBe(2);
    expect(err.join("")).toContain("a read grant can never run it");
    expect(await main([...base, "--access", "write", "--op", "nope.nope", "--token-env", "GITHUB_TOKEN"], io)).toBe(2);
    await chmod(member.file, 0o644);
    expect(await main([...base, "--access", "read", "--token-env", "GITHUB_TOKEN"], io)).toBe(2);
    expect(err.join("")).toContain("readable by others");
    expect(out).toEqual([]);
  });
});

describe("integrations confirm", () => {
  it("shows the rendered line and signs a confirmation the bot can verify", async () => {
    const member = await memberKeyFile();
    const bot = generateBotKeys();
    expect(
      await main(["grant", "--member", member.file, "--bot", bot.publicKey, "--integration", "github", "--access", "write", "--token-env", "GITHUB_TOKEN"], io),
    ).toBe(0);
    const grant = openGrant(out.join("").trim(), { bot, trustedMembers: [member.publicKey] });
    out.length = 0;
    err.length = 0;
    const operation = registry
      .integrations()
      .find((m) => m.id === "github")
      ?.ops.find((op) => op.access === "write");
    const args = Object.fromEntries(Object.keys(operation?.args ?? {}).map((name) => [name, `v-${name}`]));
    const argv = ["confirm", "--member", member.file, "--gid", grant.gid, "github", operation?.id as string];
    for (const [name, value] of Object.entries(args)) argv.push("--arg", `${name}=${value}`);
    const questions: string[] = [];
    const asking: CommandIo = {
      ...io,
      ask: async (question) => {
        questions.push(question);
        return "y";
      },
    };
    expect(await main([...argv, "--expect-digest", argsDigest(args)], asking)).toBe(0);
    const line = renderConfirm(operation?.confirm as string, args);
    expect(err.join("")).toContain(`github ${operation?.id} will run as:\n\n  ${line}\n`);
    expect(questions).toEqual(["Sign this confirmation? [y/N] "]);
    const token = out.join("").trim();
    expect(() => verifyConfirmation(token, { grant, op: operation?.id as string, args, line, replay: new ReplayCache() })).not.toThrow();
  });

  it("signs nothing when the args are not the ones the bot asked for", async () => {
    const member = await memberKeyFile();
    const write = registry.get("github")?.ops.find((op) => op.access === "write");
    const [name] = Object.keys(write?.args ?? {});
    const code = await main(
      [
        "confirm",
        "--member",
        member.file,
        "--gid",
        "g",
        "github",
        write?.id as string,
        "--arg",
        `${name}=x`,
        "--expect-digest",
        argsDigest({ [name as string]: "y" }),
      ],
      io,
    );
    expect(code).toBe(1);
    expect(out).toEqual([]);
  });
});

describe("integrations confirm asks before it signs", () => {
  const args = {
    domain: "member-brand.com",
    owner_type: "individual",
    given: "Mallory",
    family: "Attacker",
    email: "mallory@evil.example",
    street: "1 Evil Way",
    city: "Badtown",
    zip: "66600",
    country: "GB",
    phone: "+44.2079460000",
  };
  const argv = (file: string) => [
    "confirm",
    "--member",
    file,
    "--gid",
    "AAAAAAAAAAAAAAAAAAAAAA",
    "gandi",
    "domains.register",
    ...Object.entries(args).flatMap(([name, value]) => ["--arg", `${name}=${value}`]),
  ];

  it("shows the Gandi registrant on the line and the optional phone in the details, before the question", async () => {
    const member = await memberKeyFile();
    const seen: string[] = [];
    const asking: CommandIo = {
      ...io,
      ask: async () => {
        seen.push(err.join(""));
        return "yes";
      },
    };
    expect(await main(argv(member.file), asking)).toBe(0);
    expect(seen[0]).toContain("the owner on record will be Mallory Attacker (individual), mallory@evil.example, 1 Evil Way, 66600 Badtown, GB");
    expect(seen[0]).toContain("Details the line does not fully show:\n  phone (not in the line):\n    +44.2079460000\n");
    expect(out.join("")).toMatch(/^ec1\./);
  });

  it("signs nothing when the member says no, or when no one can answer and --yes was not given", async () => {
    const member = await memberKeyFile();
    expect(await main(argv(member.file), { ...io, ask: async () => "n" })).toBe(1);
    expect(out).toEqual([]);
    expect(err.join("")).toContain("nothing signed");
    err.length = 0;
    expect(await main(argv(member.file), { ...io, ask: async () => undefined })).toBe(1);
    expect(await main(argv(member.file), io)).toBe(1);
    expect(out).toEqual([]);
    expect(err.join("")).toMatch(/confirm asks before it signs; run it in a terminal, or pass --yes/);
  });

  it("signs without asking with --yes, still printing the line and details", async () => {
    const member = await memberKeyFile();
    expect(
      await main([...argv(member.file), "--yes"], {
        ...io,
        ask: async () => {
          throw new Error("must not ask");
        },
      }),
    ).toBe(0);
    expect(err.join("")).toContain("phone (not in the line)");
    expect(out.join("")).toMatch(/^ec1\./);
  });

  it("escapes every control character of a value, flags look-alikes, and shows a cut value whole", async () => {
    const member = await memberKeyFile();
    const body = `ok\u001b[2J\u009b31m ${"x".repeat(200)} tail`;
    const code = await main(
      [
        "confirm",
        "--member",
        member.file,
        "--gid",
        "AAAAAAAAAAAAAAAAAAAAAA",
        "github",
        "issues.comment",
        "--arg",
        "owner=octocat",
        "--arg",
        "repo=hello-world",
        "--arg",
        "issue_number=7",
        "--arg",
        `body=${body}`,
        "--yes",
      ],
      io,
    );
    expect(code).toBe(0);
    const shown = err.join("");
    expect(shown).not.toMatch(/[\u001b\u009b]/);
    expect(shown).toContain("body (cut in the line; holds hidden characters; hidden: U+001B U+009B):");
    expect(shown).toContain(" tail");
    err.length = 0;
    await main(
      [
        "confirm",
        "--member",
        member.file,
        "--gid",
        "AAAAAAAAAAAAAAAAAAAAAA",
        "slack",
        "chat.post_message",
        "--arg",
        "channel=C0123456",
        "--arg",
        "text=Pay p\u0430ypal.com now",
        "--yes",
      ],
      io,
    );
    expect(err.join("")).toContain(
      "text (mixes scripts: look-alike letters?; letters that look Latin but are not; Cyrillic + Latin; reads as: Pay paypal.com now):",
    );
  });

  it("flags a registrant e-mail spelt in Lisu with what it reads as, and a value's quote that could close the line's own", async () => {
    const member = await memberKeyFile();
    const lisu = "\uA4E2\uA4F0\uA4E3\uA4E6\uA4F2\uA4DA\uA4F0@\uA4EE\uA4DA\uA4DF\uA4F0.\uA4DA\uA4F3\uA4DF";
    const spoofed = Object.entries({ ...args, email: lisu, owner_type: "individual), x (company" }).flatMap(([name, value]) => ["--arg", `${name}=${value}`]);
    expect(await main(["confirm", "--member", member.file, "--gid", "AAAAAAAAAAAAAAAAAAAAAA", "gandi", "domains.register", ...spoofed, "--yes"], io)).toBe(0);
    const shown = err.join("");
    expect(shown).toContain("email (letters that look Latin but are not; Lisu; reads as: SERVlCE@ACME.COM):");
    expect(shown).toContain("(individual\uFFFD, x \uFFFDcompany)");
    expect(shown).toContain("owner_type (quotes or brackets that could pass for the line's own (shown as U+FFFD in the line)):");
  });
});

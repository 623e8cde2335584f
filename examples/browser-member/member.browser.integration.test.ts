// The member's side in a real headless Chromium: the web client (schema + grants, bundled by
// esbuild) makes member keys, seals a grant to a real sidecar's key, renders the chip from its
// own copy of the manifest and signs the tap; the bot (the protocol's client, in Node) runs the
// write with it once. The provider is the sidecar's loopback TLS stand-in for api.github.com.
import { createServer, type Server } from "node:http";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { chromium, type Browser, type Page } from "playwright-core";
import type { Manifest } from "@eleven-integrations/schema";
import { manifestFiles } from "@eleven-integrations/manifests";
import { startSidecar, type RunningSidecar } from "@eleven-integrations/sidecar";
import { createSidecarClient, type ConfirmationRequired, type SidecarClient } from "@eleven-integrations/sidecar-protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_ARGS, ensureChromium } from "../../apps/broker/src/__fixtures__/chromium.js";
import { startProviderStandIn, type ProviderStandIn } from "../../apps/sidecar/src/__fixtures__/provider-stand-in.js";
import type * as MemberClient from "./member-client.js";

const MEMBER_TOKEN = "ghp_theMembersTokenSealedInTheBrowser01234";
const ARGS = { owner: "octocat", repo: "hello-world", title: "Seen from the browser" };
// Passed into the page as JSON text, as the messenger would fetch it from the broker.
const GITHUB = JSON.stringify(manifestFiles.find((file) => (file.json as { id?: string }).id === "github")?.json);

/** What the page holds: the bundle's global, and the member's keys, which never leave it. */
interface PageGlobals {
  ElevenMember: typeof MemberClient;
  member: { publicKey: string; secretKey: string };
  tap: Promise<string>;
}

let bundle: { code: string; bytes: number; gzipBytes: number; packages: Record<string, number> };
let site: Server;
let origin: string;
let browser: Browser;
let provider: ProviderStandIn;
let sidecar: RunningSidecar | undefined;
let bot: SidecarClient | undefined;

async function bundleMemberClient(): Promise<typeof bundle> {
  const result = await build({
    entryPoints: [new URL("./member-client.ts", import.meta.url).pathname],
    bundle: true,
    platform: "browser",
    format: "iife",
    globalName: "ElevenMember",
    target: "es2022",
    minify: true,
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error("esbuild wrote nothing");
  const packages: Record<string, number> = {};
  for (const meta of Object.values(result.metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(meta.inputs)) {
      const name = /node_modules\/\.pnpm\/(.+?)@\d/.exec(input)?.[1] ?? /packages\/([^/]+)\//.exec(input)?.[1] ?? input;
      packages[name] = (packages[name] ?? 0) + bytesInOutput;
    }
  }
  return { code: output.text, bytes: output.contents.byteLength, gzipBytes: gzipSync(output.contents).byteLength, packages };
}

beforeAll(async () => {
  const executablePath = ensureChromium();
  bundle = await bundleMemberClient();
  console.log(
    `member web client bundle (schema + grants, esbuild --minify, iife): ${bundle.bytes} bytes, ${bundle.gzipBytes} gzip; by package: ${Object.entries(
      bundle.packages,
    )
      .sort((a, b) => b[1] - a[1])
      .map(([name, bytes]) => `${name} ${bytes}`)
      .join(", ")}`,
  );
  // The page a messenger would serve: its own script only, WebAssembly allowed for libsodium, nothing else.
  site = createServer((request, response) => {
    const csp = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'none'";
    if (request.url === "/member.js") return response.writeHead(200, { "content-type": "text/javascript", "content-security-policy": csp }).end(bundle.code);
    if (request.url === "/") {
      return response
        .writeHead(200, { "content-type": "text/html; charset=utf-8", "content-security-policy": csp })
        .end('<!doctype html><html lang="en"><title>member</title><main id="chip"></main><script src="/member.js"></script></html>');
    }
    return response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
  browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  provider = await startProviderStandIn();
}, 600_000);

afterAll(async () => {
  await bot?.close();
  await sidecar?.close();
  await provider?.close();
  await browser?.close();
  await new Promise((resolve) => site?.close(resolve));
});

async function memberPage(): Promise<{ page: Page; problems: string[]; requests: string[] }> {
  const page = await browser.newPage();
  const problems: string[] = [];
  const requests: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("request", (request) => requests.push(request.url()));
  await page.goto(origin);
  return { page, problems, requests };
}

describe("the member's web client in headless Chromium", () => {
  it("bundles schema and grants without zod or Node built-ins", () => {
    expect(bundle.packages).toHaveProperty("libsodium");
    expect(bundle.packages).toHaveProperty("grants");
    expect(Object.keys(bundle.packages).filter((name) => name === "zod" || name.startsWith("node:"))).toEqual([]);
  });

  it("makes member keys, seals a grant to a real sidecar, renders the chip and signs the tap, which runs the write once", async () => {
    const { page, problems, requests } = await memberPage();
    const memberKey = await page.evaluate(async () => {
      const scope = globalThis as unknown as PageGlobals;
      await scope.ElevenMember.ready();
      scope.member = scope.ElevenMember.generateMemberKeys();
      return scope.member.publicKey;
    });

    // The bot's operator trusts this member; the sidecar starts on its socket.
    const home = await mkdtemp(join(tmpdir(), "browser-member-"));
    await writeFile(join(home, "trusted-members.json"), JSON.stringify([memberKey]));
    sidecar = await startSidecar({ home, dispatcher: provider.dispatcher });
    bot = createSidecarClient({ socketPath: sidecar.socketPath as string }, { callerToken: (await readFile(sidecar.callerTokenFile, "utf8")).trim() });
    const { public_key: botPublicKey } = await bot.identity();

    const grant = await page.evaluate(
      async ({ manifest, botPublicKey, token }) => {
        const scope = globalThis as unknown as PageGlobals;
        return scope.ElevenMember.grantAccess({
          member: scope.member,
          botPublicKey,
          manifest: JSON.parse(manifest) as Manifest,
          access: "write",
          token,
          ttlSeconds: 600,
        });
      },
      { manifest: GITHUB, botPublicKey, token: MEMBER_TOKEN },
    );
    expect(grant).toMatch(/^eg1\./);
    await expect(bot.ops({ grant })).resolves.toMatchObject({ status: "ok", integration: "github", access: "write" });

    const asked = await bot.run({ grant, op: "issues.create", args: ARGS });
    expect(asked.status).toBe("confirmation_required");
    const answer = asked as ConfirmationRequired;
    await page.evaluate(
      ({ manifest, args, answer }) => {
        const scope = globalThis as unknown as PageGlobals;
        scope.tap = scope.ElevenMember.showChip(document.getElementById("chip") as HTMLElement, scope.member, {
          manifest: JSON.parse(manifest) as Manifest,
          args,
          answer,
        });
      },
      { manifest: GITHUB, args: ARGS, answer },
    );
    await expect(page.locator(".chip-line").textContent()).resolves.toBe(answer.confirm);
    expect(answer.confirm).toContain("Seen from the browser");
    await page.getByRole("button", { name: "Confirm" }).click();
    const confirmation = await page.evaluate(() => (globalThis as unknown as PageGlobals).tap);
    expect(confirmation).toMatch(/^ec1\./);

    const posts = () => provider.requests.filter((request) => request.method === "POST");
    const before = posts().length;
    const wrote = await bot.run({ grant, op: "issues.create", args: ARGS, confirmation });
    expect(wrote).toMatchObject({ status: "ok", http_status: 201, data: { number: 42, title: "Seen from the browser" } });
    expect(posts()).toHaveLength(before + 1);
    expect(posts().at(-1)?.authorization).toBe(`Bearer ${MEMBER_TOKEN}`);

    // The same tap submitted again, twice at once: refused or replayed, never a second write.
    const again = await Promise.all([
      bot.run({ grant, op: "issues.create", args: ARGS, confirmation }),
      bot.run({ grant, op: "issues.create", args: ARGS, confirmation }),
    ]);
    for (const repeat of again) {
      const replayed = repeat.status === "ok" && repeat.replayed === true;
      const refused = repeat.status === "error" && repeat.error.code === "confirmation_invalid";
      expect(replayed || refused, JSON.stringify(repeat)).toBe(true);
    }
    expect(posts()).toHaveLength(before + 1);

    // The page spoke to no one but its own origin, and logged no problem.
    expect(requests.every((url) => url.startsWith(`${origin}/`))).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("shows no chip when the bot relays a line its manifest does not render", async () => {
    const { page } = await memberPage();
    const refused = await page.evaluate(
      async ({ manifest, args }) => {
        const scope = globalThis as unknown as PageGlobals;
        await scope.ElevenMember.ready();
        const member = scope.ElevenMember.generateMemberKeys();
        const answer: ConfirmationRequired = {
          status: "confirmation_required",
          integration: "github",
          op: "issues.create",
          confirm: "Read the news",
          details: [],
          args_digest: "x",
          gid: "g",
        };
        try {
          await scope.ElevenMember.showChip(document.getElementById("chip") as HTMLElement, member, {
            manifest: JSON.parse(manifest) as Manifest,
            args,
            answer,
          });
          return "shown";
        } catch (error) {
          return (error as Error).message;
        }
      },
      { manifest: GITHUB, args: ARGS },
    );
    expect(refused).toBe("the bot's line is not the one this manifest renders: no chip");
    await expect(page.getByRole("button").count()).resolves.toBe(0);
    await page.close();
  });
});

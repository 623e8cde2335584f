import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromium, type Browser, type Page } from "playwright-core";
import { loadRegistry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";
import { buildApp } from "../app.js";
import { CHROMIUM_ARGS, ensureChromium } from "../__fixtures__/chromium.js";
import { PUBLIC_URL, randomKey } from "../__fixtures__/test-registry.js";

// Screenshots go to the test's output folder (gitignored).
const OUTPUT = fileURLToPath(new URL("../../test-output/", import.meta.url));

let app: ReturnType<typeof buildApp>;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  const executablePath = ensureChromium();
  app = buildApp({
    registry: loadRegistry(manifestFiles),
    publicUrl: PUBLIC_URL,
    stateKey: randomKey(),
    oauthApps: { github: { clientId: "Iv1.browser", clientSecret: "browser-test-client-secret" } },
    allowedReturnTo: [],
    logger: false,
  });
  origin = await app.listen({ host: "127.0.0.1", port: 0 });
  browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  mkdirSync(OUTPUT, { recursive: true });
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** A page that records console errors, page errors and CSP violations. */
async function openPage(javaScript = true): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ javaScriptEnabled: javaScript });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  if (javaScript) {
    await page.addInitScript({
      content: 'document.addEventListener("securitypolicyviolation", (event) => console.error("CSP violation: " + event.violatedDirective));',
    });
  }
  return { page, problems };
}

const visible = (page: Page) =>
  page.$$eval("main article", (articles) => articles.filter((article) => !(article as unknown as { hidden: boolean }).hidden).map((article) => article.id));

describe("the catalog page in a real headless chromium", () => {
  it("loads, searches, filters by category and follows a result, with no console error and the CSP holding", async () => {
    const { page, problems } = await openPage();
    const response = await page.goto(`${origin}/`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()["content-security-policy"]).toContain("default-src 'none'");
    expect(await page.title()).toBe("Eleven integrations");
    expect((await visible(page)).length).toBe(manifestFiles.length);

    // Search: the form submits to the server, which ranks with the shared index (typo tolerant).
    await page.fill("#q", "close githb issue");
    await Promise.all([page.waitForURL(/\?q=close/), page.click("form[role=search] button[type=submit]")]);
    const first = page.locator("#results ol li a").first();
    expect(await first.textContent()).toBe("GitHub: Close an issue");
    expect((await visible(page))[0]).toBe("integration-github");

    // Follow the result: the op on its integration's page is the target.
    await first.click();
    await page.waitForURL(/#op-github-issues\.close$/);
    expect(await page.$eval(":target", (element) => element.id)).toBe("op-github-issues.close");
    expect(await page.locator("#op-github-issues\\.close .destructive").textContent()).toBe("destructive");

    expect(new URL(page.url()).pathname).toBe("/integrations/github");
    await page.goto(`${origin}/`);

    // Filter by category: picking one submits the form (the page's one script).
    await Promise.all([page.waitForURL(/category=payments/), page.selectOption("#category", "payments")]);
    expect(await visible(page)).toEqual(["integration-stripe"]);
    expect(await page.locator("#count").textContent()).toBe(`Showing 1 of ${manifestFiles.length} integrations`);
    await page.screenshot({ path: `${OUTPUT}catalog-page.png`, fullPage: true });

    // The CSP holds: an injected inline script is refused and reported.
    const ran = await page.evaluate(
      '(() => { const script = document.createElement("script"); script.textContent = "window.__injected = true"; document.body.append(script); return window.__injected === true; })()',
    );
    expect(ran).toBe(false);
    await page.waitForTimeout(200);
    expect(problems.filter((problem) => problem.includes("CSP violation"))).not.toHaveLength(0);
    expect(problems.filter((problem) => !problem.includes("CSP violation") && !problem.includes("Content Security Policy"))).toEqual([]);
    await page.context().close();
  });

  it("works without JavaScript: the GET form searches and filters on the server", async () => {
    const { page, problems } = await openPage(false);
    await page.goto(`${origin}/`);
    await page.fill("#q", "slack message");
    await page.selectOption("#category", "communication");
    await Promise.all([page.waitForURL(/q=slack/), page.click("form[role=search] button[type=submit]")]);
    expect(page.url()).toContain("category=communication");
    expect(await page.locator("#results ol li a").first().textContent()).toBe("Slack: Post a message to a channel");
    // Only communication integrations with a hit show, Slack's first (Discord's messages match too).
    const communication = loadRegistry(manifestFiles)
      .integrations()
      .filter((manifest) => manifest.category === "communication")
      .map((manifest) => `integration-${manifest.id}`);
    const shown = await visible(page);
    expect(shown[0]).toBe("integration-slack");
    expect(shown.filter((id) => !communication.includes(id))).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

// axe-core's own source, evaluated in the page through the devtools protocol (the page's CSP allows no script of ours).
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: { target: string[] }[];
}

/** axe-core's WCAG 2.x A/AA rules and best practices on the page as shown; the violations, serious and critical first. */
async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  const result = (await page.evaluate(
    'axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] } }).then((result) => ({ passes: result.passes.length, violations: result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => ({ target: n.target })) })) }))',
  )) as { passes: number; violations: AxeViolation[] };
  // A run that checked nothing would pass vacuously.
  expect(result.passes).toBeGreaterThan(10);
  return result.violations;
}

const PAGES = [
  { name: "home", path: "/" },
  { name: "search", path: "/?q=close%20issue" },
  { name: "integration", path: "/integrations/github" },
] as const;

describe("the catalog pages are accessible and fit a phone", () => {
  for (const scheme of ["light", "dark"] as const) {
    for (const shown of PAGES) {
      it(`${shown.name} (${scheme}): no serious or critical axe violation`, async () => {
        const { page } = await openPage();
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto(`${origin}${shown.path}`);
        const violations = await axeViolations(page);
        const byImpact: Record<string, string[]> = {};
        for (const violation of violations) (byImpact[violation.impact ?? "none"] ??= []).push(`${violation.id} (${violation.nodes.length})`);
        console.log(`axe ${shown.name} ${scheme}: ${JSON.stringify(byImpact)}`);
        expect(violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical")).toEqual([]);
        await page.context().close();
      }, 120_000);
    }
  }

  for (const shown of PAGES) {
    it(`${shown.name}: no horizontal scroll at 360 px, light and dark screenshots`, async () => {
      const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
      const page = await context.newPage();
      for (const scheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto(`${origin}${shown.path}`);
        const widths = await page.evaluate("({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })");
        expect(widths).toEqual({ scroll: 360, client: 360 });
        await page.screenshot({ path: `${OUTPUT}${shown.name}-360-${scheme}.png` });
      }
      await page.setViewportSize({ width: 1100, height: 900 });
      await page.goto(`${origin}${shown.path}`);
      await page.screenshot({ path: `${OUTPUT}${shown.name}-wide.png` });
      await context.close();
    });
  }

  it("home is a compact index: short at 1280 px and at 375 px, every integration on it", async () => {
    for (const width of [1280, 375]) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${origin}/`);
      const height = (await page.evaluate("document.documentElement.scrollHeight")) as number;
      console.log(`home at ${width} px: ${height} px tall for ${manifestFiles.length} integrations`);
      // Before the index it was 36,919 px at 1280 px and 62,945 px at 375 px for 43 integrations (every op table on it).
      expect(height).toBeLessThan(1200 + (width < 600 ? 60 : 30) * manifestFiles.length);
      expect((await visible(page)).length).toBe(manifestFiles.length);
      await context.close();
    }
  });

  it("the skip link is the first stop of the keyboard and shows where focus is", async () => {
    const { page } = await openPage();
    await page.goto(`${origin}/integrations/github`);
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement.textContent")).toBe("Skip to the operations");
    const outline = await page.evaluate("getComputedStyle(document.activeElement).outlineStyle");
    expect(outline).toBe("solid");
    await page.keyboard.press("Enter");
    expect(await page.evaluate("document.activeElement.id")).toBe("main");
    await page.context().close();
  });
});

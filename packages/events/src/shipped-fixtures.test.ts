import { readdirSync, readFileSync } from "node:fs";
import { manifestFiles } from "@eleven-integrations/manifests";
import { parseManifest, type Manifest, type WebhookDialect } from "@eleven-integrations/schema";
import { describe, expect, it } from "vitest";
import { signLikeProvider } from "./__fixtures__/sign-like-providers.js";
import { webhookEvent } from "./build-event.js";
import { verifyWebhook } from "./verify-webhook.js";

// Each fixture is a provider's documented sample delivery (payload and headers), named with its page.
// Providers publish no signing secret with their samples, so the test signs the sample's exact bytes
// with a test secret the way the dialect documents, then verifies and maps it as the broker would.
interface ProviderFixture {
  page: string;
  dialect: WebhookDialect;
  integration: string;
  headers: Record<string, string>;
  url?: string;
  body: string;
  expect: { event: string; line?: string };
}

const NOW = 1_765_000_000;
const SECRET = "fixture-signing-secret";
const folder = new URL("./__fixtures__/providers/", import.meta.url);
const fixtures = readdirSync(folder)
  .filter((name) => name.endsWith(".json"))
  .map((name) => [name, JSON.parse(readFileSync(new URL(name, folder), "utf8")) as ProviderFixture] as const);

const manifests = new Map<string, Manifest>();
for (const { json } of manifestFiles) {
  const parsed = parseManifest(json);
  if (parsed.ok) manifests.set(parsed.manifest.id, parsed.manifest);
}

describe.each(fixtures)("%s", (_name, fixture) => {
  it("names its provider's page, verifies, and maps to the event the shipped manifest declares", () => {
    expect(fixture.page).toMatch(/^https:\/\//);
    // Linear refuses a delivery whose webhookTimestamp is over a minute old: the sample's is moved to the test's clock.
    const body = fixture.dialect === "linear" ? fixture.body.replace(/"webhookTimestamp":\d+/, `"webhookTimestamp":${NOW * 1000}`) : fixture.body;
    const signed = signLikeProvider(fixture.dialect, SECRET, NOW, body);
    const headers = { ...signed.headers, ...fixture.headers };
    const verified = verifyWebhook({
      dialect: fixture.dialect,
      secret: SECRET,
      headers,
      body: signed.body,
      ...(fixture.url === undefined ? {} : { url: fixture.url }),
      now: NOW,
    });
    expect(verified.ok).toBe(true);
    // Unverified, the same delivery never passes.
    expect(
      verifyWebhook({
        dialect: fixture.dialect,
        secret: "another secret",
        headers,
        body: signed.body,
        ...(fixture.url === undefined ? {} : { url: fixture.url }),
        now: NOW,
      }).ok,
    ).toBe(false);

    const manifest = manifests.get(fixture.integration);
    expect(manifest, fixture.integration).toBeDefined();
    const built = webhookEvent({ manifest: manifest as Manifest, dialect: fixture.dialect, headers, body: signed.body });
    expect(built.ok && built.event).toBe(fixture.expect.event);
    if (fixture.expect.line !== undefined) expect(built.ok && built.line).toBe(fixture.expect.line);
    expect(built.ok && built.delivery_id.length > 0).toBe(true);
  });
});

describe("what ships", () => {
  const declared = [...manifests.values()].filter((manifest) => (manifest.events ?? []).length > 0);
  const events = declared.flatMap((manifest) => manifest.events ?? []);

  it("at least 25 integrations and 60 events declare what they tell a bot", () => {
    expect(declared.length).toBeGreaterThanOrEqual(25);
    expect(events.length).toBeGreaterThanOrEqual(60);
  });

  it("every webhook dialect a shipped manifest uses has a fixture from its provider's documentation", () => {
    const used = new Set(events.flatMap((event) => (event.webhook === undefined ? [] : [event.webhook.verify])));
    const covered = new Set(fixtures.map(([, fixture]) => fixture.dialect));
    expect([...used].filter((dialect) => !covered.has(dialect))).toEqual([]);
  });

  it("the named providers: GitHub, Slack, Stripe, Linear, Jira, PagerDuty, Sentry, Zendesk, Intercom by webhook; mail, calendars, files and Todoist by poll", () => {
    const sources = (id: string) => new Set((manifests.get(id)?.events ?? []).map((event) => event.source));
    for (const id of ["github", "slack", "stripe", "linear", "jira", "pagerduty", "sentry", "zendesk", "intercom"])
      expect(sources(id).has("webhook"), id).toBe(true);
    for (const id of ["gmail", "google-calendar", "google-drive", "microsoft-outlook-mail", "microsoft-outlook-calendar", "todoist"])
      expect(sources(id).has("poll"), id).toBe(true);
    const github = (manifests.get("github")?.events ?? []).map((event) => event.id);
    expect(github).toEqual(expect.arrayContaining(["issues.opened", "pull_request.opened", "issue_comment.created", "repo.push"]));
    const slack = (manifests.get("slack")?.events ?? []).map((event) => event.id);
    expect(slack).toEqual(expect.arrayContaining(["message.channels", "app.mention"]));
  });
});

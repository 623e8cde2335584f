import { describe, expect, it } from "vitest";
import { manifestFiles } from "@eleven-integrations/manifests";
import { loadRegistry } from "@eleven-integrations/loader";
import { createSearchIndex, type SearchHit } from "./index.js";

const registry = loadRegistry(manifestFiles);
const index = createSearchIndex(registry.integrations());

function first(query: string): string {
  const hit = index.search(query, { limit: 1 })[0];
  if (hit === undefined) return "(nothing)";
  return hit.kind === "op" ? `${hit.integration} ${hit.op}` : hit.integration;
}

describe("relevance over the shipped manifests: the first result", () => {
  // What a person (or a bot) types, and what they mean.
  const cases: [string, string][] = [
    ["github", "github"],
    ["stripe", "stripe"],
    ["todo", "todoist"],
    ["payments", "stripe"],
    ["create issue github", "github issues.create"],
    ["open a github issue", "github issues.create"],
    ["close issue", "github issues.close"],
    ["pull requests", "github pulls.list"],
    ["merge request", "gitlab merge_requests.list"],
    ["post message slack", "slack chat.post_message"],
    ["send slack message", "slack chat.post_message"],
    ["look up slack user", "slack users.info"],
    ["channel history", "slack conversations.history"],
    ["register domain", "gandi domains.register"],
    ["domain price", "gandi domains.check"],
    // DigitalOcean has DNS records and a balance too: these name the service.
    ["gandi dns record", "gandi records.create"],
    ["stripe invoices", "stripe invoices.list"],
    ["stripe account balance", "stripe balance.get"],
    ["customers", "stripe customers.list"],
    ["add task", "todoist tasks.create"],
    ["reschedule task", "todoist tasks.reschedule"],
    ["linear issues assigned to me", "linear issues.assigned"],
    ["linear teams", "linear teams.list"],
    ["share a file", "google-drive permissions.share"],
    ["send an email from outlook", "microsoft-outlook-mail messages.send"],
    ["schedule a meeting in outlook", "microsoft-outlook-calendar events.invite"],
    ["post in a teams channel", "microsoft-teams channels.post"],
    ["list calendars", "google-calendar calendars.list"],
    ["append paragraph", "notion blocks.append"],
    // Notion and Confluence both search pages: these name the service.
    ["search notion pages", "notion pages.search"],
    ["search confluence pages", "confluence pages.search"],
    ["send an sms", "twilio messages.send"],
    ["open a zendesk ticket", "zendesk tickets.create"],
    ["reply to a customer", "intercom conversations.reply"],
    ["post in discord", "discord messages.create"],
    ["add contact to mailchimp audience", "mailchimp members.upsert"],
    ["log a note on a hubspot contact", "hubspot notes.create"],
    ["comment on an airtable record", "airtable comments.create"],
    ["open a salesforce case", "salesforce cases.create"],
    ["open a jira ticket", "jira issues.create"],
    ["page the on-call", "pagerduty incidents.create"],
    ["who is on call", "pagerduty oncalls.list"],
    ["resolve incident", "pagerduty incidents.resolve"],
    ["redeploy vercel", "vercel deployments.redeploy"],
    ["roll back netlify", "netlify deploys.restore"],
    ["create confluence page", "confluence pages.create"],
    ["move trello card", "trello cards.move"],
    ["complete asana task", "asana tasks.complete"],
    ["reboot droplet", "digitalocean droplets.action"],
    ["purge cache", "cloudflare cache.purge"],
    ["rerun circleci workflow", "circleci workflows.rerun_failed"],
    ["merge pull request bitbucket", "bitbucket pullrequests.merge"],
    // The fourth release's actions.
    ["open a pull request", "github pulls.create"],
    ["merge a github pull request", "github pulls.merge"],
    ["react to a slack message", "slack reactions.add"],
    ["edit my slack message", "slack chat.update"],
    ["delete slack message", "slack chat.delete"],
    ["direct message someone on slack", "slack chat.post_dm"],
    ["update linear issue", "linear issues.update"],
    ["complete todoist task", "todoist tasks.close"],
    ["move a google calendar event", "google-calendar events.update"],
    ["rename notion page", "notion pages.rename"],
    ["delete notion page", "notion pages.trash"],
  ];
  it.each(cases)("%s -> %s", (query, expected) => {
    expect(first(query)).toBe(expected);
  });

  it("has at least twenty cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(20);
  });
});

describe("typo tolerance", () => {
  it.each([
    ["githb", "github"],
    ["stirpe invoices", "stripe invoices.list"],
    // "slakc" is two edits from "slack" (a swap is two), beyond a five-letter word's one:
    // it found Slack's op only through "mesage" until Discord brought ops about messages.
    ["slak mesage", "slack chat.post_message"],
    ["gogle calender", "google-calendar"],
    ["regster domian", "gandi domains.register"],
  ])("%s -> %s", (query, expected) => {
    expect(first(query).startsWith(expected)).toBe(true);
  });

  it("does not match short words loosely: a three-letter typo finds nothing", () => {
    expect(index.search("xqz")).toEqual([]);
  });
});

describe("filters and shape", () => {
  it("an op hit names its integration, label, access and destructive flag; an integration hit its auth kind", () => {
    const [close] = index.search("close issue", { limit: 1 });
    expect(close).toMatchObject({
      kind: "op",
      integration: "github",
      name: "GitHub",
      category: "development",
      op: "issues.close",
      label: "Close an issue",
      access: "write",
      destructive: true,
    });
    const [github] = index.search("github", { limit: 1 });
    expect(github).toMatchObject({ kind: "integration", integration: "github", auth: "both" });
    expect(typeof github?.score).toBe("number");
  });

  it("filters by category, access, kind and integrations", () => {
    const inCategory = index.search("list", { category: "payments", limit: 100 });
    expect(inCategory.length).toBeGreaterThan(0);
    expect(inCategory.every((hit) => hit.category === "payments")).toBe(true);
    const writes = index.search("issue", { access: "write", limit: 100 });
    expect(writes.filter((hit) => hit.kind === "op").every((hit) => (hit as Extract<SearchHit, { kind: "op" }>).access === "write")).toBe(true);
    expect(writes.some((hit) => hit.kind === "op" && hit.op === "issues.list")).toBe(false);
    expect(index.search("issue", { kind: "integration", limit: 100 }).every((hit) => hit.kind === "integration")).toBe(true);
    expect(new Set(index.search("issue", { integrations: ["gitlab"], limit: 100 }).map((hit) => hit.integration))).toEqual(new Set(["gitlab"]));
    expect(index.search("github", { category: "payments" })).toEqual([]);
  });

  it("an empty query lists everything the filters allow, in registry order", () => {
    const all = index.search("", { limit: 500 });
    const ops = registry.integrations().reduce((count, manifest) => count + manifest.ops.length, 0);
    expect(all).toHaveLength(registry.integrations().length + ops);
    expect(all[0]).toMatchObject({ kind: "integration", integration: registry.integrations()[0]?.id, score: 0 });
    expect(index.search("  the  ", { kind: "integration", category: "productivity", limit: 500 }).map((hit) => hit.integration)).toEqual(["notion", "todoist"]);
  });

  it("bounds the number of hits", () => {
    expect(index.search("", { limit: 3 })).toHaveLength(3);
    expect(index.search("list")).toHaveLength(20);
    expect(index.search("", { limit: 0 })).toHaveLength(1);
  });

  it("lists the categories with their counts", () => {
    // Counted from the registry itself: the catalog grows (Bitbucket joined GitHub and GitLab).
    const development = registry.integrations().filter((manifest) => manifest.category === "development").length;
    expect(development).toBeGreaterThanOrEqual(2);
    expect(index.categories()).toContainEqual(["development", development]);
    expect(index.categories().map(([category]) => category)).toEqual([...index.categories().map(([category]) => category)].sort());
  });
});

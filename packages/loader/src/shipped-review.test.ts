import { manifestFiles } from "@eleven-integrations/manifests";
import type { Manifest, Operation } from "@eleven-integrations/schema";
import { describe, expect, it } from "vitest";
import { loadRegistry } from "./load-registry.js";

// What the fourth release's review of every shipped write holds (manifests/README.md,
// "Fourth-release review"): offered values that can succeed, and confirm lines that say
// who is notified, assigned or can see what a write does.
const registry = loadRegistry(manifestFiles);
const operation = (integration: string, op: string): Operation => {
  const found = registry.get(integration)?.ops.find((candidate) => candidate.id === op);
  if (found === undefined) throw new Error(`${integration} ${op} is not shipped`);
  return found;
};

/** The body fields each DNS record type needs besides its name and value, from each provider's reference. */
const RECORD_FIELDS: { integration: string; op: string; arg: string; needs: Record<string, readonly string[]>; source: string }[] = [
  {
    integration: "cloudflare",
    op: "records.create",
    arg: "type",
    needs: {
      MX: ["priority"],
      SRV: ["data"],
      CAA: ["data"],
      URI: ["priority", "data"],
      CERT: ["data"],
      DNSKEY: ["data"],
      DS: ["data"],
      HTTPS: ["data"],
      LOC: ["data"],
      NAPTR: ["data"],
      SMIMEA: ["data"],
      SSHFP: ["data"],
      SVCB: ["data"],
      TLSA: ["data"],
    },
    source: "https://developers.cloudflare.com/api/resources/dns/subresources/records/methods/create/",
  },
  {
    integration: "digitalocean",
    op: "records.create",
    arg: "type",
    needs: { MX: ["priority"], SRV: ["priority", "port", "weight"], CAA: ["flags", "tag"] },
    source: "https://docs.digitalocean.com/reference/api/digitalocean/#tag/Domain-Records",
  },
  {
    // Gandi takes every type's whole value as text in rrset_values ("10 mail.example.com." for MX).
    integration: "gandi",
    op: "records.create",
    arg: "type",
    needs: {},
    source: "https://api.gandi.net/docs/livedns/",
  },
];

describe("every DNS record type a record create offers can succeed", () => {
  it.each(RECORD_FIELDS.map((entry) => [`${entry.integration} ${entry.op}`, entry] as const))("%s", (_name, entry) => {
    const op = operation(entry.integration, entry.op);
    const offered = op.args?.[entry.arg]?.enum ?? [];
    expect(offered.length).toBeGreaterThan(0);
    const sent = Object.keys((op.body_json ?? {}) as Record<string, unknown>);
    for (const type of offered) {
      for (const field of entry.needs[type] ?? []) {
        expect(sent, `${entry.integration} ${entry.op} offers ${type}, which needs ${field} (${entry.source})`).toContain(field);
      }
    }
  });
});

/** A query pair or body leaf that makes the provider notify someone. */
const NOTIFYING_QUERY = /[?&](?:notify=true|sendNotificationEmail=true|sendUpdates=(?:all|externalOnly)|cancel_meeting_reminder=true)(?:&|$)/;
const NOTIFYING_BODY: readonly [string, unknown][] = [
  ["notify_all", true],
  ["sendInvitation", true],
  ["sendResponse", true],
  ["quiet", false],
];
const SAYS_WHO_HEARS = /notif|email|told|invitation|sent to/i;

function notifiesInBody(body: unknown): boolean {
  if (Array.isArray(body)) return body.some(notifiesInBody);
  if (body === null || typeof body !== "object") return false;
  return Object.entries(body).some(([key, value]) => NOTIFYING_BODY.some(([k, v]) => k === key && v === value) || notifiesInBody(value));
}

describe("a write that asks the provider to notify people says so on its line", () => {
  const writes = registry
    .integrations()
    .flatMap((manifest: Manifest) => manifest.ops.filter((op) => op.access === "write").map((op) => [`${manifest.id} ${op.id}`, op] as const));
  it.each(writes.filter(([, op]) => NOTIFYING_QUERY.test(op.path) || notifiesInBody(op.body_json)))("%s", (_name, op) => {
    expect(op.confirm).toMatch(SAYS_WHO_HEARS);
  });
});

/** The lines the review fixed, each with the consequence its provider documents. */
const REVIEWED_LINES: [integration: string, op: string, says: RegExp][] = [
  ["slack", "chat.post_message", /as you.*notifying anyone it mentions/],
  ["github", "issues.create", /notifying its watchers/],
  ["github", "issues.comment", /notifying its subscribers and anyone it mentions/],
  ["gitlab", "issues.create", /notifying its watchers/],
  ["gitlab", "issues.comment", /notifying its participants/],
  ["google-calendar", "events.create", /seen by everyone that calendar is shared with/],
  ["linear", "issues.create", /the whole workspace unless the team is private/],
  ["linear", "comments.create", /notifying its subscribers/],
  ["mailchimp", "members.upsert", /emails them a request to confirm/],
  ["google-drive", "files.copy", /seen by everyone that folder is shared with/],
  ["google-docs", "documents.insert_page_break", /everyone who can open it/],
  ["google-sheets", "sheets.add", /everyone who can open it/],
  ["jira", "issues.create", /default assignee.*notified/],
];

describe("the lines the fourth-release review fixed keep the consequence they name", () => {
  it.each(REVIEWED_LINES)("%s %s", (integration, op, says) => {
    expect(operation(integration, op).confirm).toMatch(says);
  });
});

import { describe, expect, it } from "vitest";
import { manifestFiles, manifestsDir } from "@eleven-integrations/manifests";
import { loadRegistry } from "./load-registry.js";
import { loadRegistryFromDir } from "./load-registry-from-dir.js";

describe("the shipped manifests", () => {
  const registry = loadRegistry(manifestFiles);

  it("load whole, embedded and from their folder, with the same hash", async () => {
    expect((await loadRegistryFromDir(manifestsDir)).hash).toBe(registry.hash);
    expect(registry.integrations().map((manifest) => manifest.id)).toEqual(
      expect.arrayContaining(["github", "gitlab", "linear", "stripe", "gandi", "slack", "notion", "todoist", "google-calendar"]),
    );
  });

  /** Writes the provider documents as answering with no body at all (204, or SendGrid's and Microsoft Graph's 202): nothing to pick. */
  const NO_BODY = new Set([
    "zoom meetings.reschedule",
    "zoom meetings.delete",
    "sendgrid mail.send",
    "sendgrid bounces.delete",
    "box files.trash",
    "microsoft-outlook-mail messages.send",
    "microsoft-outlook-mail messages.reply",
    "microsoft-outlook-calendar events.accept",
    "microsoft-outlook-calendar events.decline",
    "microsoft-outlook-calendar events.cancel",
    "mailchimp members.tag",
    "mailchimp campaigns.schedule",
    "mailchimp campaigns.send",
    "salesforce opportunities.move_stage",
    "todoist tasks.close",
  ]);

  it.each(manifestFiles.map(({ file }) => file))("%s has two reads, a write, and a pick on every op that answers JSON", (file) => {
    const manifest = registry.get(file.replace(/\.json$/, ""));
    const ops = manifest?.ops ?? [];
    expect(ops.filter((op) => op.access === "read").length).toBeGreaterThanOrEqual(2);
    expect(ops.filter((op) => op.access === "write").length).toBeGreaterThanOrEqual(1);
    for (const op of ops) {
      // A download answers a file's bytes, not JSON: nothing to pick.
      if (op.result === "file") continue;
      const bodiless = NO_BODY.has(`${manifest?.id} ${op.id}`);
      expect(op.pick === undefined, `${file} ${op.id} ${bodiless ? "answers no body, so it picks nothing" : "has no pick"}`).toBe(bodiless);
      if (bodiless) expect(op.access, `${file} ${op.id}`).toBe("write");
    }
  });

  it("covers each kind of auth, authorization and encoding the design names", () => {
    const all = registry.integrations();
    expect(registry.get("github")?.auth.kind).toBe("both");
    expect(registry.get("google-calendar")?.auth.kind).toBe("oauth");
    expect(registry.get("linear")?.auth.authorization).toBe("none");
    expect(registry.get("linear")?.ops.some((op) => op.access === "read" && op.method === "POST")).toBe(true);
    expect(registry.get("stripe")?.ops.some((op) => op.encoding === "form")).toBe(true);
    expect(new URL(registry.get("todoist")?.auth.base ?? "").pathname).not.toBe("/");
    expect(all.every((manifest) => manifest.auth.oauth === undefined || manifest.auth.oauth.token_url.startsWith("https://"))).toBe(true);
  });
});

// The lone sidecar's event journal on a real file: retention by age with the gap answered
// `truncated`, the same id appended once, and what a restart reads back.
import { stat } from "node:fs/promises";
import { join } from "node:path";
import type { DeliveredEvent } from "@eleven-integrations/sidecar-protocol";
import { describe, expect, it } from "vitest";
import { temporaryDirectory } from "../__fixtures__/grant-kit.js";
import { LocalEventStore } from "./local-event-store.js";

const event = (id: string, at: number): DeliveredEvent => ({
  event_id: id,
  sid: "s",
  integration: "todoist",
  event: "task.added",
  at,
  data: { id },
  line: `New task “${id}”`,
});

describe("LocalEventStore", () => {
  it("keeps an id once, answers an acknowledged cursor with nothing new, and reads the same back after a restart, in a 0600 file", async () => {
    const file = join(await temporaryDirectory("event-journal-"), "events.log");
    let now = 1_800_000_000;
    const store = new LocalEventStore(file, () => now);
    await store.open();
    expect(await store.append([event("a", now), event("a", now), event("b", now)])).toBe(2);
    expect(await store.append([event("b", now)])).toBe(0);
    const page = await store.read(undefined, 100);
    expect(page.events.map((kept) => kept.event_id)).toEqual(["a", "b"]);
    expect((await store.read(page.next, 100)).events).toEqual([]);
    await store.close();
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    const again = new LocalEventStore(file, () => now);
    await again.open();
    expect((await again.read(page.next, 100)).events).toEqual([]);
    expect((await again.read(undefined, 100)).events.map((kept) => kept.event_id)).toEqual(["a", "b"]);
    await again.close();
  });

  it("drops events older than 24 hours and answers a cursor into them truncated, before and after a restart", async () => {
    const file = join(await temporaryDirectory("event-journal-"), "events.log");
    let now = 1_800_000_000;
    const store = new LocalEventStore(file, () => now);
    await store.open();
    await store.append([event("old", now)]);
    const before = (await store.read(undefined, 100)).next;
    const start = await store.read(undefined, 100);
    now += 25 * 3600;
    await store.append([event("new", now)]);
    // A cursor from before "old" was read: "old" is gone, so there is a gap.
    const fromStart = await store.read(start.next.replace(/\.[0-9]+$/, ".0"), 100);
    expect(fromStart).toMatchObject({ truncated: true, events: [{ event_id: "new" }] });
    // The cursor that acknowledged "old" has no gap.
    expect(await store.read(before, 100)).toEqual({ events: [event("new", now)], next: expect.any(String) });
    await store.close();

    const again = new LocalEventStore(file, () => now);
    await again.open();
    expect(await again.read(start.next.replace(/\.[0-9]+$/, ".0"), 100)).toMatchObject({ truncated: true, events: [{ event_id: "new" }] });
    await again.close();
  });
});

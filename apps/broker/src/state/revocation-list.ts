import { createHash, randomInt } from "node:crypto";
import { CLOCK_SKEW_SECONDS, MAX_GRANT_TTL_SECONDS } from "@eleven-integrations/grants";
import { markedError } from "@eleven-integrations/schema";
import type { Redis } from "ioredis";

/** How long a revocation is kept: until the longest grant it could end has expired anywhere, in ms. */
export const REVOCATION_RETENTION_MS = (MAX_GRANT_TTL_SECONDS + 2 * CLOCK_SKEW_SECONDS) * 1000;
/** Most revocations one `since` answer carries; `next` then points past the last one. */
export const MAX_REVOCATIONS_PER_PAGE = 500;
/**
 * Most bytes of revocations one `since` answer carries (the JSON around them adds a
 * few bytes each). A page always carries at least one entry, and one entry is at most
 * `MAX_REVOCATION_LENGTH` (24 KiB), so every page stays far below a follower's 4 MiB
 * cap and a follower can always read the next one, however large the entries.
 */
export const MAX_REVOCATION_PAGE_BYTES = 1024 * 1024;
/** Most revocations kept in this process (the global rate bound keeps a real list far below it). */
const MAX_KEPT = 50_000;

/** One page of the list: the revocations after a cursor, and the cursor after them. */
export interface RevocationPage {
  revocations: string[];
  next: string;
}

/** What `add` did with one revocation. */
export type AddOutcome = "kept" | "known" | "full";

/** The broker's revocation list: appended to by members, read by sidecars from a cursor. */
export interface RevocationList {
  /** Keeps `revocation`: `kept` when new, `known` when the same token is already kept, `full` when there is no room. */
  add(revocation: string, nowMs: number): Promise<AddOutcome>;
  /** The revocations kept after `cursor` ("0" for all), oldest first. */
  since(cursor: string, nowMs: number): Promise<RevocationPage>;
  open(): Promise<void>;
  close(): Promise<void>;
}

/** A cursor as `GET /revocations?since=` takes it: "0", or what a `next` answered (`<ms>-<seq>`). */
export const CURSOR = /^(0|[0-9]{1,15}-[0-9]{1,15})$/;

/**
 * One process's own list names itself in its cursors' `<seq>`: `<instance><counter>`, a
 * 9-digit instance number (from 100000000) then a 6-digit counter, so its cursors keep
 * the `<ms>-<seq>` shape followers know. A Redis stream's `<seq>` (entries within one
 * millisecond) never comes near that many digits.
 */
const INSTANCE_SCALE = 1_000_000;
const MIN_INSTANCE = 100_000_000;
const INSTANCE_SPAN = 900_000_000;

/** The instance that issued `cursor`, when one process's own list did; undefined for "0" and the shared stream's. */
function cursorInstance(cursor: string): number | undefined {
  const seq = Number(cursor.split("-")[1] ?? 0);
  const instance = Math.floor(seq / INSTANCE_SCALE);
  return instance >= MIN_INSTANCE ? instance : undefined;
}

/** The first entries of `tokens` that fit one page: at most `MAX_REVOCATIONS_PER_PAGE` and `MAX_REVOCATION_PAGE_BYTES`, never none. */
function pageLength(tokens: readonly string[]): number {
  let bytes = 0;
  let count = 0;
  for (const token of tokens) {
    // The token (base64url: nothing to escape), its quotes and a comma.
    bytes += token.length + 3;
    if (count > 0 && (bytes > MAX_REVOCATION_PAGE_BYTES || count >= MAX_REVOCATIONS_PER_PAGE)) break;
    count += 1;
  }
  return count;
}

/** Thrown when the shared store cannot be reached: the route answers 503, nothing half-kept. */
export class RevocationStoreUnavailable extends markedError("RevocationStoreUnavailable") {
  readonly code = "service_unavailable" as const;
  constructor() {
    super("the revocation list cannot be reached; try again");
  }
}

function compareCursor(a: string, b: string): number {
  const [am = 0, as = 0] = a.split("-").map(Number);
  const [bm = 0, bs = 0] = b.split("-").map(Number);
  return am === bm ? as - bs : am - bm;
}

/**
 * In this process: cursors are `<ms>-<seq>` like a Redis stream's, `<seq>` naming this
 * list's random instance number (see `INSTANCE_SCALE`). The list is this process's alone,
 * so a cursor another instance (or this one before a restart) issued says nothing about
 * what is here: it reads from the oldest kept, never past an entry it has not seen.
 * Several instances without Redis are not one feed (README, "Revocations"): run one, or
 * give them Redis.
 */
export function createMemoryRevocationList(instance: number = MIN_INSTANCE + randomInt(INSTANCE_SPAN)): RevocationList {
  const entries: { id: string; token: string; expiresAtMs: number }[] = [];
  const kept = new Set<string>();
  let lastMs = 0;
  let seq = 0;
  const idOf = (ms: number, counter: number) => `${ms}-${instance * INSTANCE_SCALE + counter}`;
  const sweep = (nowMs: number) => {
    let drop = 0;
    for (const entry of entries) {
      if (entry.expiresAtMs > nowMs) break;
      kept.delete(entry.token);
      drop += 1;
    }
    if (drop > 0) entries.splice(0, drop);
  };
  return {
    async add(revocation, nowMs) {
      sweep(nowMs);
      if (kept.has(revocation)) return "known";
      if (entries.length >= MAX_KEPT) return "full";
      // Monotonic even if the clock steps back; the counter carries into the next millisecond.
      if (nowMs > lastMs) {
        lastMs = nowMs;
        seq = 0;
      } else if (seq + 1 >= INSTANCE_SCALE) {
        lastMs += 1;
        seq = 0;
      } else seq += 1;
      entries.push({ id: idOf(lastMs, seq), token: revocation, expiresAtMs: nowMs + REVOCATION_RETENTION_MS });
      kept.add(revocation);
      return "kept";
    },
    async since(cursor, nowMs) {
      sweep(nowMs);
      const from = cursorInstance(cursor) === instance ? cursor : "0";
      const newer = entries.filter((entry) => compareCursor(entry.id, from) > 0);
      const page = newer.slice(0, pageLength(newer.slice(0, MAX_REVOCATIONS_PER_PAGE).map((entry) => entry.token)));
      const last = page.at(-1);
      const newest = idOf(lastMs, seq);
      return {
        revocations: page.map((entry) => entry.token),
        next: last?.id ?? (compareCursor(from, newest) > 0 ? from : newest),
      };
    },
    open: async () => undefined,
    close: async () => undefined,
  };
}

const STREAM = "eleven:broker:revocations";
const SEEN = "eleven:broker:revocation:seen:";
const MAX_STREAM_LENGTH = 200_000;
/** Entries one XRANGE of a `since` reads at most. */
const REDIS_CHUNK = 50;

/**
 * Shared by every broker instance: one Redis stream, whose ids (`<ms>-<seq>`,
 * assigned by Redis, monotonic) are the cursors; entries older than the
 * retention are trimmed on each append (`MINID`). A seen-marker per token
 * (its SHA-256, same retention) keeps one token from being appended twice.
 */
export function createRedisRevocationList(client: Redis): RevocationList {
  const call = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch {
      throw new RevocationStoreUnavailable();
    }
  };
  return {
    add: (revocation, nowMs) =>
      call(async (): Promise<AddOutcome> => {
        const seen = `${SEEN}${createHash("sha256").update(revocation).digest("base64url")}`;
        if ((await client.set(seen, "1", "PX", REVOCATION_RETENTION_MS, "NX")) !== "OK") return "known";
        const length = await client.xlen(STREAM);
        if (length >= MAX_STREAM_LENGTH) {
          await client.del(seen);
          return "full";
        }
        await client.xadd(STREAM, "MINID", "~", String(nowMs - REVOCATION_RETENTION_MS), "*", "r", revocation);
        return "kept";
      }),
    since: (cursor, nowMs) =>
      call(async () => {
        // Nothing older than the retention is served even before a trim removed it.
        const floor = `${Math.max(0, nowMs - REVOCATION_RETENTION_MS)}-0`;
        // A cursor of one process's own list says nothing about the shared stream: from the oldest kept.
        const shared = cursorInstance(cursor) === undefined ? cursor : "0";
        const start = compareCursor(shared, floor) > 0 ? shared : floor;
        // Read in chunks until the page is full, so a page of large entries does not pull 500 of them (12 MB) from Redis.
        const fetched: [string, string[]][] = [];
        let from = start;
        while (fetched.length < MAX_REVOCATIONS_PER_PAGE) {
          const chunk = await client.xrange(STREAM, `(${from}`, "+", "COUNT", REDIS_CHUNK);
          fetched.push(...chunk);
          const length = pageLength(fetched.map(([, fields]) => fields[1] ?? ""));
          if (chunk.length < REDIS_CHUNK || length < fetched.length) break;
          from = chunk.at(-1)?.[0] ?? from;
        }
        const rows = fetched.slice(0, pageLength(fetched.map(([, fields]) => fields[1] ?? "")));
        const revocations = rows.map(([, fields]) => fields[1] ?? "").filter((token) => token !== "");
        const last = rows.at(-1)?.[0];
        if (last !== undefined) return { revocations, next: last };
        // Nothing new: the stream's last id, so a follower's cursor never goes back.
        const info = (await client.xinfo("STREAM", STREAM).catch(() => undefined)) as unknown[] | undefined;
        const index = info?.indexOf("last-generated-id") ?? -1;
        const lastId = index >= 0 ? String(info?.[index + 1]) : shared;
        return { revocations, next: compareCursor(lastId, shared) > 0 ? lastId : shared };
      }),
    open: async () => undefined,
    close: async () => undefined,
  };
}

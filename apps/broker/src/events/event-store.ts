import { createHash, randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import { markedError } from "@eleven-integrations/schema";

/** Redis did not answer: the caller answers 503 (a provider retries; nothing was half stored). */
export class EventStoreUnavailable extends markedError("EventStoreUnavailable") {
  readonly code = "event_store_unavailable";
  constructor() {
    super("the event store (Redis) is not reachable");
  }
}

/** How long a delivery id is remembered: Stripe retries for up to three days, so four. */
export const DELIVERY_MEMORY_SECONDS = 4 * 24 * 3600;
/** How long a bot's stream keeps an event (trimmed by age with MINID on each append). */
export const STREAM_RETENTION_MS = 48 * 3600 * 1000;
/** A follow session's life. */
export const SESSION_SECONDS = 600;
/** Entries one page of `GET /events/:bot` answers at most. */
export const PAGE_SIZE = 100;

const PREFIX = "eleven:broker:events:";
const EPOCH = `${PREFIX}epoch`;
const sha = (text: string) => createHash("sha256").update(text, "utf8").digest("base64url");
const deliveryKey = (integration: string, deliveryId: string) => `${PREFIX}delivery:${integration}:${sha(deliveryId)}`;
const routesKey = (integration: string, account: string) => `${PREFIX}routes:${integration}:${sha(account)}`;
const streamKey = (bot: string) => `${PREFIX}bot:${bot}`;
const watermarkKey = (bot: string) => `${PREFIX}trimmed:${bot}`;
const sessionKey = (token: string) => `${PREFIX}session:${sha(token)}`;

/** A route as kept: which bot gets which events of one account. */
export interface StoredRoute {
  sid: string;
  bot: string;
  /** The member key that registered it. */
  iss: string;
  events: string[];
  args?: Record<string, string | number | boolean> | undefined;
  exp: number;
}

/** What a stream page answers: entries after the cursor, the next cursor, and whether a gap was crossed. */
export interface StreamPage {
  events: { id: string; sealed: string }[];
  next: string;
  truncated?: true;
}

// The delivery id is remembered and every bot's entry appended in one script: a provider's retry
// either finds everything stored or nothing (never a remembered id whose events were lost). Each
// stream is trimmed by age (exact MINID), and the newest id trimmed is kept as the stream's
// watermark: a cursor before it has lost events, which the follow route answers as truncated.
const STORE_SCRIPT = `
if redis.call('SET', KEYS[1], '1', 'EX', ARGV[1], 'NX') == false then return 0 end
local n = (#KEYS - 1) / 2
for i = 1, n do
  local stream = KEYS[1 + i]
  local gone = redis.call('XREVRANGE', stream, '(' .. ARGV[2], '-', 'COUNT', 1)
  if #gone > 0 then
    redis.call('SET', KEYS[1 + n + i], gone[1][1])
    redis.call('XTRIM', stream, 'MINID', ARGV[2])
  end
  redis.call('XADD', stream, '*', 'e', ARGV[2 + i])
end
return 1`;

export interface EventStore {
  /** Stores one delivery's sealed events (one per bot stream) unless its id was seen: `false` for a retry. */
  storeDelivery(integration: string, deliveryId: string, sealedByBot: readonly { bot: string; sealed: string }[], nowMs: number): Promise<boolean>;
  /** Keeps a registration's route (its bot, events and args) under its account until it expires. */
  addRoute(integration: string, account: string, route: StoredRoute): Promise<void>;
  /** The live routes of one account (expired ones are removed as they are met). */
  routes(integration: string, account: string, nowSeconds: number): Promise<StoredRoute[]>;
  openSession(bot: string): Promise<string>;
  /** The bot a session token was made for, if it is live. */
  sessionBot(token: string): Promise<string | undefined>;
  page(bot: string, after: string): Promise<StreamPage>;
}

/** `<epoch>.<ms>-<seq>`: the epoch changes when Redis lost its data, so an old cursor is known to be from before. */
export const CURSOR = /^(?:0|[A-Za-z0-9_-]{16}\.\d{1,20}-\d{1,20})$/;

function compareIds(a: string, b: string): number {
  const [am = "0", as = "0"] = a.split("-");
  const [bm = "0", bs = "0"] = b.split("-");
  const ms = BigInt(am) - BigInt(bm);
  if (ms !== 0n) return ms < 0n ? -1 : 1;
  const seq = BigInt(as) - BigInt(bs);
  return seq === 0n ? 0 : seq < 0n ? -1 : 1;
}

export function createRedisEventStore(client: Redis): EventStore {
  const call = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch {
      throw new EventStoreUnavailable();
    }
  };
  const epoch = async (): Promise<string> => {
    const current = await client.get(EPOCH);
    if (current !== null) return current;
    await client.set(EPOCH, randomBytes(12).toString("base64url"), "NX");
    return (await client.get(EPOCH)) as string;
  };
  return {
    storeDelivery: (integration, deliveryId, sealedByBot, nowMs) =>
      call(async () => {
        const keys = [
          deliveryKey(integration, deliveryId),
          ...sealedByBot.map((entry) => streamKey(entry.bot)),
          ...sealedByBot.map((entry) => watermarkKey(entry.bot)),
        ];
        const argv = [String(DELIVERY_MEMORY_SECONDS), `${nowMs - STREAM_RETENTION_MS}-0`, ...sealedByBot.map((entry) => entry.sealed)];
        // The epoch exists before anything is appended, so a cursor is never from "no epoch".
        if (sealedByBot.length > 0) await epoch();
        return (await client.eval(STORE_SCRIPT, keys.length, ...keys, ...argv)) === 1;
      }),
    addRoute: (integration, account, route) =>
      call(async () => {
        const key = routesKey(integration, account);
        await client.multi().hset(key, `${route.bot}:${route.sid}`, JSON.stringify(route)).expireat(key, route.exp, "NX").expireat(key, route.exp, "GT").exec();
      }),
    routes: (integration, account, nowSeconds) =>
      call(async () => {
        const key = routesKey(integration, account);
        const all = await client.hgetall(key);
        const live: StoredRoute[] = [];
        const expired: string[] = [];
        for (const [field, json] of Object.entries(all)) {
          const route = JSON.parse(json) as StoredRoute;
          if (route.exp > nowSeconds) live.push(route);
          else expired.push(field);
        }
        if (expired.length > 0) await client.hdel(key, ...expired);
        return live;
      }),
    openSession: (bot) =>
      call(async () => {
        const token = randomBytes(32).toString("base64url");
        await client.set(sessionKey(token), bot, "EX", SESSION_SECONDS);
        return token;
      }),
    sessionBot: (token) => call(async () => (await client.get(sessionKey(token))) ?? undefined),
    page: (bot, after) =>
      call(async () => {
        const current = await epoch();
        const [givenEpoch, givenId] = after === "0" ? [current, "0-0"] : (after.split(".") as [string, string]);
        // Another epoch: Redis lost the stream since this cursor, so read from its start and say so.
        let truncated = after !== "0" && givenEpoch !== current;
        const from = truncated ? "0-0" : givenId;
        const key = streamKey(bot);
        if (!truncated && from !== "0-0") {
          const trimmed = await client.get(watermarkKey(bot));
          // An event after this cursor was trimmed (retention passed): a gap the bot must hear about.
          if (trimmed !== null && compareIds(from, trimmed) < 0) truncated = true;
        }
        const entries = await client.xrange(key, `(${from}`, "+", "COUNT", PAGE_SIZE);
        const events = entries.map(([id, fields]) => ({ id: `${current}.${id}`, sealed: String(fields[1]) }));
        const last = entries.at(-1)?.[0] ?? from;
        const page: StreamPage = { events, next: `${current}.${last}` };
        if (truncated) page.truncated = true;
        return page;
      }),
  };
}

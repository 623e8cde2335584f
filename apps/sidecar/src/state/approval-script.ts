import type { Redis } from "ioredis";
import { defineScript } from "./redis-script.js";

/**
 * One run of a standing approval's budget, in one trip, atomically: the store's
 * epoch, the approval's revocation (`PTTL`: -2 when not revoked) and, unless it
 * is revoked or the run would go over, one run (and its amount) counted in the
 * window, which its first run opens (`PX` of the window) and the amount's key
 * shares. Nothing is counted when the answer is no.
 *
 * KEYS: epoch, revoked, runs counter, amount counter.
 * ARGV: window (ms), most runs, this run's amount ("" for none), most amount.
 * Reply: `[epoch, verdict, ttlMs]`, verdict "ok", "revoked", "runs" or "sum";
 * `ttlMs` the window's time left (the revocation's for "revoked").
 */
const SPEND_LUA = `
local epoch = redis.call('get', KEYS[1])
local revoked = redis.call('pttl', KEYS[2])
if revoked ~= -2 then return {epoch, 'revoked', revoked} end
local runs = tonumber(redis.call('get', KEYS[3]) or '0')
local ttl = redis.call('pttl', KEYS[3])
if ttl < 0 then
  runs = 0
  ttl = tonumber(ARGV[1])
end
if runs + 1 > tonumber(ARGV[2]) then return {epoch, 'runs', ttl} end
local spent = 0
if ARGV[3] ~= '' then
  if runs > 0 then spent = tonumber(redis.call('get', KEYS[4]) or '0') end
  spent = spent + tonumber(ARGV[3])
  if spent > tonumber(ARGV[4]) then return {epoch, 'sum', ttl} end
  redis.call('set', KEYS[4], tostring(spent), 'PX', ttl)
end
redis.call('set', KEYS[3], runs + 1, 'PX', ttl)
return {epoch, 'ok', ttl}
`;

/**
 * What is left of the budget, counting nothing.
 *
 * KEYS: revoked, runs counter, amount counter.
 * Reply: `[revokedTtl, runs, ttlMs, spent]` (runs and spent as text).
 */
const LEFT_LUA = `
local revoked = redis.call('pttl', KEYS[1])
local ttl = redis.call('pttl', KEYS[2])
if ttl < 0 then return {revoked, '0', -2, '0'} end
return {revoked, redis.call('get', KEYS[2]) or '0', ttl, redis.call('get', KEYS[3]) or '0'}
`;

/** The spend script's reply. */
export type SpendReply = [string | null, "ok" | "revoked" | "runs" | "sum", number];

type SpendCommand = (
  epochKey: string,
  revokedKey: string,
  runsKey: string,
  sumKey: string,
  windowMs: number,
  runs: number,
  amount: string,
  max: string,
) => Promise<unknown>;
type LeftCommand = (revokedKey: string, runsKey: string, sumKey: string) => Promise<unknown>;

export function spendCommand(client: Redis): SpendCommand {
  return defineScript<SpendCommand>(client, "elevenApprovalSpend", 4, SPEND_LUA);
}

export function leftCommand(client: Redis): LeftCommand {
  return defineScript<LeftCommand>(client, "elevenApprovalLeft", 3, LEFT_LUA);
}

/** Checks the reply's shape: a store that answers anything else is not trusted with the decision. */
export function spendReply(reply: unknown): SpendReply {
  const ok =
    Array.isArray(reply) &&
    reply.length === 3 &&
    (reply[0] === null || typeof reply[0] === "string") &&
    ["ok", "revoked", "runs", "sum"].includes(reply[1] as string) &&
    typeof reply[2] === "number";
  if (!ok) throw new Error("Redis answered the approval script with an unexpected reply");
  return reply as SpendReply;
}

/** `[revokedTtl, runs, ttlMs, spent]`, checked. */
export function leftReply(reply: unknown): [number, number, number, number] {
  const ok = Array.isArray(reply) && reply.length === 4 && typeof reply[0] === "number" && typeof reply[2] === "number";
  const runs = ok ? Number(reply[1]) : Number.NaN;
  const spent = ok ? Number(reply[3]) : Number.NaN;
  if (!ok || !Number.isFinite(runs) || !Number.isFinite(spent)) throw new Error("Redis answered the budget script with an unexpected reply");
  return [reply[0] as number, runs, reply[2] as number, spent];
}

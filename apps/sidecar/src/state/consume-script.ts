import type { Redis } from "ioredis";
import { defineScript } from "./redis-script.js";

/**
 * One confirmation consumed in one trip, atomically: the store's epoch, the
 * replay key set if absent (`SET NX PX`), and, only when it was set, the
 * write's outcome slot marked pending (`SET NX PX`), so "in progress" is said
 * exactly while a write that consumed its confirmation has no outcome yet.
 *
 * KEYS: epoch, replay key, outcome key.
 * ARGV: replay key life (ms), outcome slot life (ms), the pending marker.
 * Reply: `[epoch, consumed]`, `consumed` 1 or 0.
 */
const CONSUME_LUA = `
local epoch = redis.call('get', KEYS[1])
local set = redis.call('set', KEYS[2], '1', 'PX', ARGV[1], 'NX')
if not set then return {epoch, 0} end
redis.call('set', KEYS[3], ARGV[3], 'PX', ARGV[2], 'NX')
return {epoch, 1}
`;

const COMMAND = "elevenConsume";

/** The script's reply: the epoch (or null) and whether this call consumed the confirmation. */
export type ConsumeReply = [string | null, 0 | 1];

type ConsumeCommand = (epochKey: string, replayKey: string, outcomeKey: string, replayMs: number, outcomeMs: number, pending: string) => Promise<unknown>;

/** Registers the script on `client` and returns its caller. */
export function consumeCommand(client: Redis): ConsumeCommand {
  return defineScript<ConsumeCommand>(client, COMMAND, 3, CONSUME_LUA);
}

/** Checks the reply's shape: a store that answers anything else is not trusted with the decision. */
export function consumeReply(reply: unknown): ConsumeReply {
  const ok = Array.isArray(reply) && reply.length === 2 && (reply[0] === null || typeof reply[0] === "string") && (reply[1] === 0 || reply[1] === 1);
  if (!ok) throw new Error("Redis answered the consume script with an unexpected reply");
  return reply as ConsumeReply;
}

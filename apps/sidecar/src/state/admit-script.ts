import type { Redis } from "ioredis";
import { defineScript } from "./redis-script.js";

/** The Lua function that counts one run on a fixed-window counter (`rate-limiter-flexible`'s own steps): shared by both admit scripts. */
export const COUNT_LUA = `
local function count(key, window)
  redis.call('set', key, 0, 'EX', window, 'NX')
  local consumed = redis.call('incrby', key, 1)
  local ttl = redis.call('pttl', key)
  if ttl == -1 then
    redis.call('expire', key, window)
    ttl = 1000 * window
  end
  return consumed, ttl
end
`;

/**
 * One call's trip to Redis, atomically: the store's epoch, the grant's revocation
 * (`PTTL`: -2 when not revoked) and, only when it is not revoked, one run counted
 * against the grant's limit and then, unless that refused it, the integration's.
 * Each count is `rate-limiter-flexible`'s own script on the same keys
 * (`<prefix>rl:grant:<member>:<gid>`, `<prefix>rl:integration:<id>`), so reads
 * counted here and writes counted by its limiters share one counter.
 *
 * KEYS: epoch, revoked, grant counter, integration counter.
 * ARGV: grant window (s), grant points, integration window (s), integration points.
 * Reply: `[epoch, revokedTtl, grantCount?, grantTtl?, integrationCount?, integrationTtl?]`.
 */
const ADMIT_LUA = `
local epoch = redis.call('get', KEYS[1])
local revoked = redis.call('pttl', KEYS[2])
if revoked ~= -2 then return {epoch, revoked} end
${COUNT_LUA}
local grant, grantTtl = count(KEYS[3], ARGV[1])
if grant > tonumber(ARGV[2]) then return {epoch, revoked, grant, grantTtl} end
local integration, integrationTtl = count(KEYS[4], ARGV[3])
return {epoch, revoked, grant, grantTtl, integration, integrationTtl}
`;

const COMMAND = "elevenAdmit";

/** The script's reply: `[epoch, revokedTtl, grantCount?, grantTtl?, integrationCount?, integrationTtl?]`. */
export type AdmitReply = [string | null, number, number?, number?, number?, number?];

type AdmitCommand = (epochKey: string, revokedKey: string, grantKey: string, integrationKey: string, ...windowsAndPoints: number[]) => Promise<unknown>;

/** Registers the script on `client` and returns its caller. */
export function admitCommand(client: Redis): AdmitCommand {
  return defineScript<AdmitCommand>(client, COMMAND, 4, ADMIT_LUA);
}

/** Checks the reply's shape: a store that answers anything else is not trusted with the decision. */
export function admitReply(reply: unknown): AdmitReply {
  const ok =
    Array.isArray(reply) &&
    (reply.length === 2 || reply.length === 4 || reply.length === 6) &&
    (reply[0] === null || typeof reply[0] === "string") &&
    reply.slice(1).every((value) => typeof value === "number");
  if (!ok) throw new Error("Redis answered the admit script with an unexpected reply");
  return reply as AdmitReply;
}

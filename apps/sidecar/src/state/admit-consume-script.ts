import type { Redis } from "ioredis";
import { COUNT_LUA } from "./admit-script.js";
import { defineScript } from "./redis-script.js";

/**
 * A confirmed write's whole trip to Redis, atomically: the admit script's steps
 * (epoch, the grant's revocation, one run counted against the grant's and then
 * the integration's limit) and, only when they let the call in, the consume
 * script's (the replay key `SET NX PX`, and only when it was set the outcome slot
 * marked pending). One command instead of two: a refused call consumes nothing.
 *
 * KEYS: epoch, revoked, grant counter, integration counter, replay key, outcome key.
 * ARGV: grant window (s), grant points, integration window (s), integration points,
 *       replay key life (ms), outcome slot life (ms), the pending marker.
 * Reply: `[epoch, revokedTtl, grantCount, grantTtl, integrationCount, integrationTtl, consumed]`,
 * cut short after the step that refused (as the admit script's reply is).
 */
const ADMIT_CONSUME_LUA = `
local epoch = redis.call('get', KEYS[1])
local revoked = redis.call('pttl', KEYS[2])
if revoked ~= -2 then return {epoch, revoked} end
${COUNT_LUA}
local grant, grantTtl = count(KEYS[3], ARGV[1])
if grant > tonumber(ARGV[2]) then return {epoch, revoked, grant, grantTtl} end
local integration, integrationTtl = count(KEYS[4], ARGV[3])
if integration > tonumber(ARGV[4]) then return {epoch, revoked, grant, grantTtl, integration, integrationTtl} end
local set = redis.call('set', KEYS[5], '1', 'PX', ARGV[5], 'NX')
if not set then return {epoch, revoked, grant, grantTtl, integration, integrationTtl, 0} end
redis.call('set', KEYS[6], ARGV[7], 'PX', ARGV[6], 'NX')
return {epoch, revoked, grant, grantTtl, integration, integrationTtl, 1}
`;

/** The script's reply: the admit script's, then whether this call consumed the confirmation. */
export type AdmitConsumeReply = [string | null, number, number?, number?, number?, number?, (0 | 1)?];

type AdmitConsumeCommand = (
  epochKey: string,
  revokedKey: string,
  grantKey: string,
  integrationKey: string,
  replayKey: string,
  outcomeKey: string,
  grantWindow: number,
  grantPoints: number,
  integrationWindow: number,
  integrationPoints: number,
  replayMs: number,
  outcomeMs: number,
  pending: string,
) => Promise<unknown>;

/** Registers the script on `client` and returns its caller. */
export function admitConsumeCommand(client: Redis): AdmitConsumeCommand {
  return defineScript<AdmitConsumeCommand>(client, "elevenAdmitConsume", 6, ADMIT_CONSUME_LUA);
}

/** Checks the reply's shape: a store that answers anything else is not trusted with the decision. */
export function admitConsumeReply(reply: unknown): AdmitConsumeReply {
  const ok =
    Array.isArray(reply) &&
    [2, 4, 6, 7].includes(reply.length) &&
    (reply[0] === null || typeof reply[0] === "string") &&
    reply.slice(1).every((value) => typeof value === "number") &&
    (reply.length !== 7 || reply[6] === 0 || reply[6] === 1);
  if (!ok) throw new Error("Redis answered the admit-and-consume script with an unexpected reply");
  return reply as AdmitConsumeReply;
}

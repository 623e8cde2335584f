import { sealToPublicKey } from "@eleven-integrations/grants";
import type { FastifyInstance } from "fastify";
import fastifyPlugin from "fastify-plugin";
import { BROKER_CONTEXT } from "../broker-context.js";
import { checkClientKey } from "../connect/client-key.js";
import { BrokerError } from "../http/broker-error.js";
import { queryOf, single } from "../http/query.js";
import { createWindowCounters } from "../state/window-counter.js";
import { CURSOR, EventStoreUnavailable, SESSION_SECONDS, type EventStore } from "./event-store.js";

const BEARER = /^Bearer ([A-Za-z0-9_-]{43})$/;
/** Sessions one address may open a minute, and in all: a session is a Redis key for 10 minutes, so asking is bounded. */
export const SESSIONS_PER_ADDRESS_PER_MINUTE = 30;
export const SESSIONS_PER_MINUTE = 600;

/**
 * How a sidecar follows its bot's events:
 * - `POST /events/:bot/session` answers `{ sealed, expires_in }`: a random token sealed to the
 *   bot's X25519 key. Only the bot's key opens it; asking proves nothing.
 * - `GET /events/:bot?after=<cursor>` with `Authorization: Bearer <token>` (10 minutes) answers
 *   `{ events: [{ id, sealed }], next, truncated? }` from that bot's stream only.
 */
async function followRoutes(app: FastifyInstance): Promise<void> {
  const { broker } = app;
  const storeOf = (): EventStore => {
    if (broker.events === undefined) throw new BrokerError("service_unavailable", "this broker keeps no events (no Redis configured)");
    return broker.events;
  };
  app.addHook("onRequest", async (_request, reply) => {
    reply.headers({ "cache-control": "no-store", "x-content-type-options": "nosniff" });
  });

  const budgets = createWindowCounters({ windowMs: 60_000, maxKeys: 10_000 });
  app.post<{ Params: { bot: string } }>("/events/:bot/session", async (request, reply) => {
    const bot = botKey(request.params.bot);
    const nowMs = Date.now();
    for (const decision of [budgets.take(`ip:${request.ip}`, SESSIONS_PER_ADDRESS_PER_MINUTE, nowMs), budgets.take("all", SESSIONS_PER_MINUTE, nowMs)]) {
      if (!decision.ok)
        throw new BrokerError("rate_limited", "too many sessions asked from this address or in all: try again later", {
          retryAfterSeconds: decision.retryAfterSeconds,
        });
    }
    const token = await guard(() => storeOf().openSession(bot));
    return reply
      .code(201)
      .header("content-type", "application/json; charset=utf-8")
      .send(JSON.stringify({ sealed: sealToPublicKey(token, bot), expires_in: SESSION_SECONDS }));
  });

  app.get<{ Params: { bot: string } }>("/events/:bot", async (request, reply) => {
    const bot = botKey(request.params.bot);
    const store = storeOf();
    const token = BEARER.exec(request.headers.authorization ?? "")?.[1];
    const holder = token === undefined ? undefined : await guard(() => store.sessionBot(token));
    // One answer for no token, an expired one and another bot's: a session opens one bot's stream.
    if (holder !== bot) throw new BrokerError("events_unauthorized", "send Authorization: Bearer <the token POST /events/:bot/session sealed to this bot>");
    const query = queryOf(request.url);
    const after = query.has("after") ? single(query, "after") : "0";
    if (after === undefined || !CURSOR.test(after)) throw new BrokerError("invalid_query", 'after must be "0" or a cursor this broker answered as next');
    const page = await guard(() => store.page(bot, after));
    return reply.code(200).header("content-type", "application/json; charset=utf-8").send(JSON.stringify(page));
  });
}

function botKey(value: string): string {
  try {
    return checkClientKey(value);
  } catch {
    throw new BrokerError("bad_request", "the bot is named by its 32-byte X25519 public key, unpadded base64url");
  }
}

async function guard<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (EventStoreUnavailable.isInstance(error)) throw new BrokerError("service_unavailable", error.message);
    throw error;
  }
}

export const followPlugin = fastifyPlugin(followRoutes, { name: "event-follow", dependencies: [BROKER_CONTEXT], encapsulate: true, fastify: "5.x" });

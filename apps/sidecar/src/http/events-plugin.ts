import type { FastifyInstance } from "fastify";
import fastifyPlugin from "fastify-plugin";
import { eventsBodySchema, MAX_EVENTS_PER_ANSWER, parseBody, subscribeBodySchema } from "@eleven-integrations/sidecar-protocol";
import { subscribe } from "../events/subscribe.js";
import { SIDECAR_CONTEXT } from "./context.js";
import { httpErrorBody, INVALID_BODY_MESSAGE } from "./http-error.js";

/** Room above the longest wait before the connection's own idle timeout would cut an answer off. */
const WAIT_HEADROOM_MS = 10_000;

/**
 * `POST /v1/subscriptions` adds a member's subscription; `POST /v1/events` is the
 * bot's long poll (up to 30 s): the events after its cursor, each handed out
 * remembered as delivered (an event-bound approval names one).
 */
async function eventsRoutes(app: FastifyInstance): Promise<void> {
  const { sidecar } = app;
  const { events, scheduler } = sidecar;
  if (events === undefined || scheduler === undefined) return;
  const closing = sidecar.closing ?? (() => false);
  app.post("/v1/subscriptions", async (request, reply) => {
    const parsed = parseBody(subscribeBodySchema, request.body);
    if (!parsed.ok) return reply.code(400).send(httpErrorBody("invalid_body", INVALID_BODY_MESSAGE, parsed.issues));
    return await subscribe(parsed.value, { ...sidecar, events, scheduler });
  });

  app.post("/v1/events", async (request, reply) => {
    const parsed = parseBody(eventsBodySchema, request.body);
    if (!parsed.ok) return reply.code(400).send(httpErrorBody("invalid_body", INVALID_BODY_MESSAGE, parsed.issues));
    const { after, wait_ms: waitMs = 0 } = parsed.value;
    // The server's idle timeout is shorter than the longest wait: this connection gets room for it, and its own back after.
    const socket = request.raw.socket;
    const idle = socket.timeout;
    if (waitMs > 0) socket.setTimeout(waitMs + WAIT_HEADROOM_MS);
    const gone = new AbortController();
    // The response's close before it finished is the bot hanging up (the request's own close only means its body was read).
    const onClose = () => {
      if (!reply.raw.writableFinished) gone.abort();
    };
    reply.raw.once("close", onClose);
    const longPoll = async () => {
      const deadline = Date.now() + waitMs;
      let page = await events.read(after, MAX_EVENTS_PER_ANSWER);
      while (page.events.length === 0 && page.truncated !== true && Date.now() < deadline && !gone.signal.aborted && !closing()) {
        await events.waitForAppend(Math.min(deadline - Date.now(), 1_000), gone.signal);
        page = await events.read(after, MAX_EVENTS_PER_ANSWER);
      }
      if (page.events.length > 0) await events.markDelivered(page.events, Math.floor(Date.now() / 1000));
      return page;
    };
    try {
      return await longPoll();
    } catch (error) {
      // Redis away or the journal unwritable: the cursor is not moved, the bot asks again with the same one.
      request.log.warn({ kind: (error as NodeJS.ErrnoException).code ?? (error as Error).name }, "the event store could not be read");
      return reply
        .code(500)
        .send(httpErrorBody("internal_error", "the sidecar cannot reach its event store (Redis, or its journal on disk); ask again with the same cursor"));
    } finally {
      reply.raw.off("close", onClose);
      if (waitMs > 0 && idle !== undefined) socket.setTimeout(idle);
    }
  });
}

export const eventsPlugin = fastifyPlugin(eventsRoutes, { name: "events", dependencies: [SIDECAR_CONTEXT], encapsulate: true, fastify: "5.x" });

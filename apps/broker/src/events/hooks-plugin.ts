import { MAX_WEBHOOK_BODY_BYTES, verifyWebhook, webhookEvent } from "@eleven-integrations/events";
import type { Manifest, WebhookDialect } from "@eleven-integrations/schema";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fastifyPlugin from "fastify-plugin";
import { BROKER_CONTEXT } from "../broker-context.js";
import { BrokerError } from "../http/broker-error.js";
import { EventStoreUnavailable } from "./event-store.js";
import { slackChallenge, unsignedHandshake, type Handshake } from "./handshakes.js";
import { sealForRoutes } from "./route-delivery.js";
import type { WebhookOutcome } from "./webhook-outcome.js";

/** The one dialect a manifest's webhook events are verified with (the first declared). */
export function dialectOf(manifest: Manifest): WebhookDialect | undefined {
  return manifest.events?.find((event) => event.source === "webhook" && event.webhook !== undefined)?.webhook?.verify;
}

/**
 * `POST /hooks/:integration`: an app's webhook deliveries. The body is kept as the bytes
 * received (never parsed and re-serialised), at most 1 MiB (413 before anything else is read);
 * verified with the manifest's dialect under the configured `webhookSecrets` (401 for anything
 * about the secret or the signature, `no_secret` included; 400 malformed); deduplicated by
 * delivery id; routed to the bots whose member connected the event's account; sealed to each
 * bot and appended to its stream. Nothing is stored on a refusal, and nothing of the body or
 * the secret is logged.
 */
async function hookRoutes(app: FastifyInstance): Promise<void> {
  const { broker } = app;
  const outcomes = new WeakMap<FastifyRequest, { integration: string; outcome: WebhookOutcome }>();
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: MAX_WEBHOOK_BODY_BYTES }, (_request, body, done) => done(null, body));
  app.addHook("onRequest", async (_request, reply) => {
    reply.headers({ "cache-control": "no-store", "x-content-type-options": "nosniff" });
  });
  app.addHook("onResponse", async (request, reply) => {
    const known = outcomes.get(request);
    const id = (request.params as { integration?: unknown } | undefined)?.integration;
    const integration = known?.integration ?? (typeof id === "string" && broker.registry.get(id) !== undefined ? id : "unknown");
    const outcome = known?.outcome ?? (reply.statusCode === 413 ? "too_large" : "malformed");
    broker.onWebhook?.({ integration, outcome });
  });

  app.post<{ Params: { integration: string } }>("/hooks/:integration", async (request, reply) => {
    const { integration } = request.params;
    const mark = (outcome: WebhookOutcome, known = true) => outcomes.set(request, { integration: known ? integration : "unknown", outcome });
    const manifest = broker.registry.get(integration);
    const dialect = manifest === undefined ? undefined : dialectOf(manifest);
    if (manifest === undefined || dialect === undefined) {
      mark("unknown_integration", false);
      throw new BrokerError("unknown_integration", "no integration here takes webhooks at this address");
    }
    const body: Uint8Array = Buffer.isBuffer(request.body) ? request.body : new Uint8Array(0);
    const query = new URL(request.url, "http://broker.invalid").searchParams;
    const handshake = unsignedHandshake(dialect, query, request.headers, body);
    if (handshake !== undefined) {
      mark("handshake");
      return answerHandshake(reply, handshake);
    }
    const nowSeconds = broker.now();
    const verified = verifyWebhook({
      dialect,
      secret: broker.webhookSecrets[integration],
      headers: request.headers,
      body,
      url: `${broker.publicUrl}${request.url}`,
      now: nowSeconds,
    });
    if (!verified.ok) {
      mark(verified.reason);
      request.log.info({ integration, reason: verified.reason }, "webhook delivery refused");
      if (verified.reason === "malformed") throw new BrokerError("invalid_body", "the delivery is not what this provider sends");
      if (verified.reason === "too_large") throw new BrokerError("payload_too_large", "the delivery is over 1 MiB");
      throw new BrokerError("webhook_unverified", "the delivery is not signed with this integration's webhook secret");
    }
    const challenge = slackChallenge(dialect, body);
    if (challenge !== undefined) {
      mark("handshake");
      return answerHandshake(reply, challenge);
    }
    const built = webhookEvent({ manifest, dialect, headers: request.headers, body });
    if (!built.ok) {
      mark(built.reason);
      // Verified but not an event the manifest declares: answered 2xx so the provider stops, and dropped.
      if (built.reason === "undeclared_event") return accepted(reply, "dropped");
      throw new BrokerError("invalid_body", "the delivery does not carry what this integration's events declare");
    }
    const store = broker.events;
    if (store === undefined) {
      mark("unavailable");
      throw new BrokerError("service_unavailable", "this broker keeps no events (no Redis configured)");
    }
    try {
      const routes = built.account === undefined ? [] : await store.routes(integration, built.account, nowSeconds);
      const sealed = sealForRoutes(manifest, built, body, routes, nowSeconds);
      if (sealed.length === 0) {
        mark("unrouted");
        return accepted(reply, "dropped");
      }
      const stored = await store.storeDelivery(integration, built.delivery_id, sealed, nowSeconds * 1000);
      mark(stored ? "stored" : "duplicate");
      request.log.info({ integration, event: built.event, bots: sealed.length, duplicate: !stored }, "webhook delivery accepted");
      return accepted(reply, stored ? "stored" : "duplicate");
    } catch (error) {
      if (!EventStoreUnavailable.isInstance(error)) throw error;
      mark("unavailable");
      throw new BrokerError("service_unavailable", "the event store is not reachable: the provider will retry");
    }
  });
}

function accepted(reply: FastifyReply, outcome: "stored" | "duplicate" | "dropped"): FastifyReply {
  return reply
    .code(200)
    .header("content-type", "application/json; charset=utf-8")
    .send(JSON.stringify({ received: true, outcome }));
}

function answerHandshake(reply: FastifyReply, handshake: Handshake): FastifyReply {
  reply.code(200);
  if (handshake.kind === "text") return reply.header("content-type", "text/plain; charset=utf-8").send(handshake.body);
  if (handshake.kind === "header") return reply.header(handshake.name, handshake.value).send();
  return reply.header("content-type", "application/json; charset=utf-8").send(JSON.stringify(handshake.body));
}

export const hooksPlugin = fastifyPlugin(hookRoutes, { name: "hooks", dependencies: [BROKER_CONTEXT], encapsulate: true, fastify: "5.x" });

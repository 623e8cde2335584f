import { GrantError, MAX_REGISTRATION_LENGTH, memberBoxKey, verifyRegistration, type Registration } from "@eleven-integrations/grants";
import type { FastifyInstance } from "fastify";
import fastifyPlugin from "fastify-plugin";
import { z } from "zod";
import { BROKER_CONTEXT } from "../broker-context.js";
import { verifyAccountBinding } from "../connect/token-proof.js";
import { BrokerError } from "../http/broker-error.js";
import { EventStoreUnavailable } from "./event-store.js";

const bodySchema = z.strictObject({ registration: z.string().max(MAX_REGISTRATION_LENGTH) });

/**
 * `POST /subscriptions { registration }`: a member says where an app webhook's events of one
 * account go (`ew1.`, signed by the member: sid, bot, integration, account, events, args?, exp ≤ 30
 * days). The registration carries the connect bundle's `account_binding`, which must bind this
 * account to the X25519 form of the signing key (`memberBoxKey`): only a member whose key
 * connected an account routes its events.
 */
async function registrationRoutes(app: FastifyInstance): Promise<void> {
  const { broker } = app;
  app.addHook("onRequest", async (_request, reply) => {
    reply.headers({ "cache-control": "no-store", "x-content-type-options": "nosniff" });
  });
  app.post("/subscriptions", { bodyLimit: MAX_REGISTRATION_LENGTH + 256 }, async (request, reply) => {
    const body = bodySchema.safeParse(request.body);
    if (!body.success) throw new BrokerError("invalid_body", "the body must be { registration }: one signed registration (ew1.…)");
    let registration: Registration;
    try {
      registration = verifyRegistration(body.data.registration, { now: broker.now() });
    } catch (error) {
      if (!GrantError.isInstance(error)) throw error;
      throw new BrokerError("invalid_registration", `the registration is refused (${error.code})`);
    }
    const manifest = broker.registry.get(registration.integration);
    const webhookEvents = new Set((manifest?.events ?? []).filter((event) => event.source === "webhook").map((event) => event.id));
    if (manifest === undefined || webhookEvents.size === 0) throw new BrokerError("unknown_integration", "no integration here takes webhooks by that id");
    const undeclared = registration.events.filter((event) => !webhookEvents.has(event));
    if (undeclared.length > 0) throw new BrokerError("invalid_registration", `not webhook events of ${manifest.name}: ${undeclared.join(", ")}`);
    const connected = verifyAccountBinding(broker.stateKeys, registration.account_binding, {
      integration: registration.integration,
      account: registration.account,
      clientKey: memberBoxKey(registration.iss),
    });
    if (!connected)
      throw new BrokerError("account_not_connected", "this member key did not connect that account here: connect it with the member's key, then register");
    const store = broker.events;
    if (store === undefined) throw new BrokerError("service_unavailable", "this broker keeps no events (no Redis configured)");
    try {
      await store.addRoute(registration.integration, registration.account, {
        sid: registration.sid,
        bot: registration.bot,
        iss: registration.iss,
        events: registration.events,
        args: registration.args,
        exp: registration.exp,
      });
    } catch (error) {
      if (EventStoreUnavailable.isInstance(error)) throw new BrokerError("service_unavailable", error.message);
      throw error;
    }
    request.log.info({ integration: registration.integration, events: registration.events.length }, "event registration kept");
    return reply
      .code(201)
      .header("content-type", "application/json; charset=utf-8")
      .send(JSON.stringify({ sid: registration.sid, exp: registration.exp }));
  });
}

export const registrationsPlugin = fastifyPlugin(registrationRoutes, {
  name: "event-registrations",
  dependencies: [BROKER_CONTEXT],
  encapsulate: true,
  fastify: "5.x",
});

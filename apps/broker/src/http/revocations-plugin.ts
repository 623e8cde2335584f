import { MAX_REVOCATION_LENGTH, REVOCATION_PREFIX } from "@eleven-integrations/grants";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fastifyPlugin from "fastify-plugin";
import { z } from "zod";
import { BrokerError } from "./broker-error.js";
import { BROKER_CONTEXT } from "./context.js";
import { queryOf, single } from "./query.js";
import { CURSOR, RevocationStoreUnavailable } from "../state/revocation-list.js";

/** The shape the broker can check without the member's key: `er1.` and unpadded base64url, within the grants' bound. */
const REVOCATION = new RegExp(`^${REVOCATION_PREFIX.replace(".", "\\.")}[A-Za-z0-9_-]{88,}$`);
const bodySchema = z.strictObject({ revocation: z.string().max(MAX_REVOCATION_LENGTH).regex(REVOCATION) });

/**
 * `POST /revocations { revocation }` keeps a member's signed revocation for
 * every sidecar that follows this broker; `GET /revocations?since=<cursor>`
 * answers `{ revocations, next }`. No caller token: the revocation is signed by
 * the member and the sidecars verify it (the broker cannot open the grant inside).
 */
async function revocationRoutes(app: FastifyInstance): Promise<void> {
  const { broker } = app;
  app.addHook("onRequest", async (_request, reply) => {
    reply.headers({ "cache-control": "no-store", "x-content-type-options": "nosniff" });
  });

  app.post("/revocations", { bodyLimit: MAX_REVOCATION_LENGTH + 64 }, async (request, reply) => {
    // Budgets first: a refused request creates no state beyond its counters.
    takeBudget(request);
    if (!(request.headers["content-type"] ?? "").toLowerCase().startsWith("application/json")) {
      throw new BrokerError("unsupported_media_type", "the body must be JSON (content-type: application/json)");
    }
    const body = bodySchema.safeParse(request.body);
    if (!body.success)
      throw new BrokerError(
        "invalid_body",
        `the body must be { revocation }: one signed revocation (${REVOCATION_PREFIX}…, at most ${MAX_REVOCATION_LENGTH} characters), nothing else`,
      );
    const kept = await guard(() => broker.revocations.add(body.data.revocation, Date.now()));
    if (!kept) throw new BrokerError("service_unavailable", "the revocation list is full; try again later");
    request.log.info("revocation kept");
    return reply
      .code(202)
      .header("content-type", "application/json; charset=utf-8")
      .send(JSON.stringify({ kept: true }));
  });

  app.get("/revocations", async (request, reply) => {
    const query = queryOf(request.url);
    const since = query.has("since") ? single(query, "since") : "0";
    if (since === undefined || !CURSOR.test(since)) throw new BrokerError("invalid_query", 'since must be "0" or a cursor this broker answered as next');
    const page = await guard(() => broker.revocations.since(since, Date.now()));
    return reply.code(200).header("content-type", "application/json; charset=utf-8").send(JSON.stringify(page));
  });

  function takeBudget(request: FastifyRequest): void {
    const now = Date.now();
    const { perAddress, global } = broker.revocationLimits;
    const address = broker.revocationCounters.peek(request.ip, perAddress, now);
    const all = broker.revocationGlobal.peek("global", global, now);
    const refused = !address.ok ? address : !all.ok ? all : undefined;
    if (refused !== undefined && !refused.ok) {
      throw new BrokerError("rate_limited", "too many revocations from this address or in all: try again later", {
        retryAfterSeconds: refused.retryAfterSeconds,
      });
    }
    broker.revocationCounters.take(request.ip, perAddress, now);
    broker.revocationGlobal.take("global", global, now);
  }
}

async function guard<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (RevocationStoreUnavailable.isInstance(error)) throw new BrokerError("service_unavailable", error.message);
    throw error;
  }
}

export const revocationsPlugin = fastifyPlugin(revocationRoutes, { name: "revocations", dependencies: [BROKER_CONTEXT], encapsulate: true, fastify: "5.x" });

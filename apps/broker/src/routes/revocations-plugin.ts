import { MAX_REVOCATION_LENGTH, REVOCATION_PREFIX, revocationSignedBy } from "@eleven-integrations/grants";
import { KEY_PATTERN } from "@eleven-integrations/schema";
import type { FastifyInstance } from "fastify";
import fastifyPlugin from "fastify-plugin";
import { z } from "zod";
import { BrokerError } from "../http/broker-error.js";
import { BROKER_CONTEXT } from "../broker-context.js";
import { queryOf, single } from "../http/query.js";
import { CURSOR, RevocationStoreUnavailable } from "../state/revocation-list.js";
import type { WindowDecision } from "../state/window-counter.js";

/** The shape the broker can check without the member's key: `er1.` and unpadded base64url, within the grants' bound. */
const REVOCATION = new RegExp(`^${REVOCATION_PREFIX.replace(".", "\\.")}[A-Za-z0-9_-]{88,}$`);
const bodySchema = z.strictObject({
  revocation: z.string().max(MAX_REVOCATION_LENGTH).regex(REVOCATION),
  /** The member's Ed25519 public key: with it the broker checks the signature and counts the post as the member's. */
  member: z.string().regex(KEY_PATTERN).optional(),
});

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

  app.post("/revocations", { bodyLimit: MAX_REVOCATION_LENGTH + 128 }, async (request, reply) => {
    const nowMs = Date.now();
    const body = bodySchema.safeParse(request.body);
    const member = body.success ? body.data.member : undefined;
    // A member's signed revocation is counted only against budgets junk cannot reach: its key's,
    // its address's and the signed total. Everything else (no member, or a body that is not one)
    // is anonymous and spends only the anonymous budgets.
    if (member === undefined) refuseOver(broker.revocationBudgets.takeAnonymous(request.ip, nowMs));
    if (!(request.headers["content-type"] ?? "").toLowerCase().startsWith("application/json")) {
      throw new BrokerError("unsupported_media_type", "the body must be JSON (content-type: application/json)");
    }
    if (!body.success)
      throw new BrokerError(
        "invalid_body",
        `the body must be { revocation, member? }: one signed revocation (${REVOCATION_PREFIX}…, at most ${MAX_REVOCATION_LENGTH} characters) and the member's public key, nothing else`,
      );
    if (member !== undefined) {
      if (!revocationSignedBy(body.data.revocation, member)) {
        refuseOver(broker.revocationBudgets.takeAnonymous(request.ip, nowMs));
        throw new BrokerError("invalid_signature", "the revocation is not signed by this member key");
      }
      refuseOver(broker.revocationBudgets.peekSigned(member, request.ip, nowMs));
    }
    const outcome = await guard(() => broker.revocations.add(body.data.revocation, nowMs));
    if (outcome === "full") throw new BrokerError("service_unavailable", "the revocation list is full; try again later");
    // Posting a kept revocation again spends nothing: a replay of a member's public revocation cannot use up its budget.
    if (member !== undefined && outcome === "kept") broker.revocationBudgets.takeSigned(member, request.ip, nowMs);
    request.log.info(member === undefined ? "revocation kept" : "signed revocation kept");
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
}

function refuseOver(decision: WindowDecision): void {
  if (!decision.ok)
    throw new BrokerError("rate_limited", "too many revocations from this address, by this member or in all: try again later", {
      retryAfterSeconds: decision.retryAfterSeconds,
    });
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

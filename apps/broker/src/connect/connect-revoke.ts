import type { FastifyInstance } from "fastify";
import { resolveTenantUrl } from "@eleven-integrations/executor";
import { z } from "zod";
import { BrokerError } from "../http/broker-error.js";
import { resolveOAuthTarget } from "./oauth-integration.js";
import { revokeAtProvider, type RevocationOutcome } from "./provider-revocation.js";
import { verifyRevokeProof } from "./token-proof.js";

const MAX_TOKEN_LENGTH = 16 * 1024;
const bodySchema = z.strictObject({
  token: z.string().min(1).max(MAX_TOKEN_LENGTH),
  stripe_user_id: z
    .string()
    .regex(/^acct_[A-Za-z0-9]{1,64}$/)
    .optional(),
  /** The connection's tenant settings (the bundle's `connection`), for a revocation URL on the member's tenant host. */
  connection: z.record(z.string().regex(/^[a-z][a-z0-9_]{0,31}$/), z.string().max(256)).optional(),
  /** The bundle's `revoke_proof`: this broker issued the token (for Stripe, for this account). */
  revoke_proof: z.string().max(128).optional(),
});

/**
 * `POST /connect/:id/revoke { token }` revokes a member's token at the provider,
 * as the manifest's `auth.oauth.revocation` says, with the broker's client
 * credentials: `{ revoked: true }`; 409 `revocation_unavailable` (with
 * `revoke_help`, where to revoke by hand) when the provider has no way; 400
 * `revocation_refused` when the provider refuses this token; 502
 * `revocation_failed` when it fails. Stripe (which disconnects on an account id
 * alone) only with the bundle's `revoke_proof`. Bounded: proven calls per token,
 * per address and in all; anonymous ones per address and in all, apart.
 * The outcome is logged by kind and provider code, never the token.
 */
export async function connectRevoke(app: FastifyInstance): Promise<void> {
  const { broker } = app;
  app.post<{ Params: { id: string } }>("/connect/:id/revoke", { bodyLimit: 32 * 1024 }, async (request, reply) => {
    const now = Date.now();
    if (!(request.headers["content-type"] ?? "").toLowerCase().startsWith("application/json")) {
      throw new BrokerError("unsupported_media_type", "the body must be JSON (content-type: application/json)");
    }
    const body = bodySchema.safeParse(request.body);
    if (!body.success)
      throw new BrokerError("invalid_body", "the body must be { token, revoke_proof? } (and stripe_user_id for Stripe), strings, nothing else");
    const target = resolveOAuthTarget(broker, request.params.id);
    const revocation = target.endpoints.revocation;
    if (revocation === undefined) {
      const help = target.endpoints.revoke_help ?? target.manifest.auth.pat_help;
      throw new BrokerError("revocation_unavailable", `${target.manifest.name} offers no way for an app to revoke a token: revoke the app's access by hand`, {
        details: help === undefined ? {} : { revoke_help: help },
      });
    }
    if (revocation.dialect === "stripe" && body.data.stripe_user_id === undefined) {
      throw new BrokerError("invalid_body", "Stripe revokes a connected account: send stripe_user_id from the bundle with the token");
    }
    const proven = verifyRevokeProof(broker.stateKeys, body.data.revoke_proof, {
      integration: target.manifest.id,
      accessToken: body.data.token,
      account: revocation.dialect === "stripe" ? body.data.stripe_user_id : undefined,
    });
    // Stripe deauthorizes an account with the platform key alone, whatever the token: only a caller who
    // proves this broker connected that account for it may ask, and every other caller gets one answer,
    // whichever account it names (no provider call, nothing told about the account).
    if (revocation.dialect === "stripe" && !proven) {
      throw new BrokerError(
        "revocation_not_proven",
        `${target.manifest.name} disconnects an account with the platform key alone: send the token, stripe_user_id and revoke_proof from the bundle this broker sealed`,
      );
    }
    // A tenant host (`https://{instance}.my.salesforce.com/...`): filled from the connection by the executor's rules.
    const url = resolveTenantUrl(target.manifest, revocation.url, body.data.connection);
    if (!url.ok) {
      const settings = url.problems.map((problem) => problem.setting).filter((setting) => setting !== "");
      throw new BrokerError(
        "invalid_body",
        `${target.manifest.name} revokes on your own host: send connection { ${settings.join(", ")} } (${url.problems.map((problem) => problem.message).join("; ")})`,
      );
    }
    // Counted only now, for a call about to reach the provider: a proven call against its token's budgets,
    // anything else against the anonymous ones, so junk cannot spend what a member with a proof needs.
    const budget = broker.revokeBudgets.take(request.ip, proven ? body.data.token : undefined, now);
    if (!budget.ok)
      throw new BrokerError("rate_limited", "too many revocations from this address, of this token or in all: try again later", {
        retryAfterSeconds: budget.retryAfterSeconds,
      });
    const outcome = await revokeAtProvider(broker.fetch, revocation.dialect, url.url, target.dialect.clientAuth, target.app, {
      token: body.data.token,
      stripeUserId: body.data.stripe_user_id,
    });
    broker.onRevocation?.({ integration: target.manifest.id, outcome });
    request.log.info({ integration: target.manifest.id, outcome: outcome.kind, ...providerDetail(outcome) }, "revocation at the provider");
    if (outcome.kind === "refused")
      throw new BrokerError(
        "revocation_refused",
        `${target.manifest.name} refused to revoke this token (${outcome.providerCode}): it may already be revoked or not be this integration's`,
      );
    if (outcome.kind === "failed")
      throw new BrokerError("revocation_failed", `${target.manifest.name} could not revoke the token now (${outcome.providerCode}): try again later`);
    return reply
      .code(200)
      .header("content-type", "application/json; charset=utf-8")
      .send(JSON.stringify({ revoked: true }));
  });
}

function providerDetail(outcome: RevocationOutcome): Record<string, unknown> {
  return outcome.kind === "revoked" ? {} : { status: outcome.status, providerCode: outcome.providerCode };
}

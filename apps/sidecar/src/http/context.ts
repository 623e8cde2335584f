import { performance } from "node:perf_hooks";
import type { KeyPair } from "@eleven-integrations/grants";
import fastifyPlugin from "fastify-plugin";
import type { AuditSink } from "../audit/audit-log.js";
import type { Readiness } from "../metrics/readiness.js";
import type { LiveRegistry } from "../registry/live-registry.js";
import type { RunFlowContext } from "../run/run-flow.js";
import type { RevokeDeps } from "../state/revoke.js";

/** Everything the routes share, decorated on the instance as `app.sidecar`. */
export interface SidecarContext extends Omit<RunFlowContext, "registry" | "executor">, RevokeDeps {
  /** The bot's box public key, which `GET /v1/identity` publishes. */
  publicKey: string;
  /** The registry running now, and its executor: each request takes one snapshot and keeps it. */
  live: LiveRegistry;
  audit: AuditSink;
  /** The key of the audit lines' `args_digest`. */
  auditKey: string;
  /** The Ed25519 key pair that signs the receipts of writes (`receipt_key` is its public half). */
  receiptKeys: () => KeyPair;
  /** Runs still being handled; shutdown waits for them before closing the audit log. */
  inFlight: Set<Promise<unknown>>;
  /** What `GET /readyz` answers, on this listener and on the metrics listener alike. */
  readiness: Readiness;
}

declare module "fastify" {
  interface FastifyInstance {
    sidecar: SidecarContext;
  }
}

/** The name every route plugin lists in its `dependencies`. */
export const SIDECAR_CONTEXT = "sidecar-context";

/** Decorates the instance with `sidecar`, the one context the route plugins read. */
export const sidecarContextPlugin = fastifyPlugin<{ context: SidecarContext }>(
  async (app, { context }) => {
    app.decorate("sidecar", context);
  },
  { name: SIDECAR_CONTEXT, fastify: "5.x" },
);

/** The context bound to the registry running as the request starts: it finishes on that one. */
export function runContext(context: SidecarContext): RunFlowContext {
  const { registry, executor } = context.live.current();
  return { registry, executor, openGrant: context.openGrant, state: context.state };
}

export function elapsedMs(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}

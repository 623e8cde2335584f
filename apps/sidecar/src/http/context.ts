import type { Registry } from "@eleven-integrations/loader";
import fastifyPlugin from "fastify-plugin";
import type { CallRunner } from "../call/flows.js";
import type { Readiness } from "../metrics/readiness.js";
import type { LiveRegistry } from "../registry/live-registry.js";
import type { GrantOpener } from "../run/grant-opener.js";
import type { SharedState } from "../state/shared-state.js";
import type { RevokeDeps } from "../state/revoke.js";
import type { EventScheduler } from "../events/event-scheduler.js";
import type { EventStore } from "../events/event-store.js";

/** Everything the routes share, decorated on the instance as `app.sidecar`. */
export interface SidecarContext extends CallRunner, RevokeDeps {
  /** The bot's box public key, which `GET /v1/identity` publishes. */
  publicKey: string;
  /** The registry running now, and its executor: each request takes one snapshot and keeps it. */
  live: LiveRegistry;
  /** What `GET /readyz` answers, on this listener and on the metrics listener alike. */
  readiness: Readiness;
  /** The bot's events and subscriptions (hand-built test contexts may leave the events out: the event routes then refuse). */
  events?: EventStore;
  /** Runs the poll subscriptions and the lifecycle events. */
  scheduler?: EventScheduler;
  /** True once the app is closing: a long poll answers at once. */
  closing?: () => boolean;
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

/** What the routes that run nothing (the palette, search) read: the registry running as the request starts, and the bot's grants and state. */
export interface ListingContext {
  registry: Registry;
  openGrant: GrantOpener;
  state: SharedState;
}

export function listingContext(context: SidecarContext): ListingContext {
  return { registry: context.live.current().registry, openGrant: context.openGrant, state: context.state };
}

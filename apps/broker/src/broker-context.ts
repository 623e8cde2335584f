import type { Executor } from "@eleven-integrations/executor";
import type { Registry } from "@eleven-integrations/loader";
import fastifyPlugin from "fastify-plugin";
import type { ConnectEvent } from "./connect/connect-event.js";
import type { OAuthApp } from "./connect/oauth-app.js";
import type { OutboundFetch } from "./connect/outbound-fetch.js";
import type { RefreshFlights } from "./state/refresh-flight.js";
import type { RefreshLimiter } from "./state/refresh-limiter.js";
import type { RevocationList } from "./state/revocation-list.js";
import type { RevocationBudgets } from "./state/revocation-budgets.js";
import type { RevokeBudgets } from "./state/revoke-budgets.js";
import type { RevocationOutcome } from "./connect/provider-revocation.js";
import type { ServedRelease } from "./catalog/signed-release.js";
import type { EventStore } from "./events/event-store.js";
import type { WebhookSecrets } from "./events/webhook-secrets.js";
import type { WebhookReport } from "./events/webhook-outcome.js";

/** Everything the routes share, decorated on the instance as `app.broker`. */
export interface BrokerContext {
  readonly registry: Registry;
  /** The signed release served at `GET /registry.signed`, when one was configured. */
  readonly release: ServedRelease | undefined;
  /** `publicUrl + "/connect/callback"`, sent as `redirect_uri` in both legs of the flow. */
  readonly redirectUri: string;
  /** The broker's https origin (Twilio signs the URL it posted to). */
  readonly publicUrl: string;
  /** An app's webhook signing secret(s) per integration; an integration without one refuses every delivery (`no_secret`). */
  readonly webhookSecrets: Readonly<WebhookSecrets>;
  /** Events sealed to bots, routes, delivery ids and follow sessions, in Redis; undefined without Redis (the event routes answer 503). */
  readonly events: EventStore | undefined;
  /** Called with each provider post's outcome (metrics); never sees the body or a secret. */
  readonly onWebhook: ((report: WebhookReport) => void) | undefined;
  /** The key new states are sealed with. */
  readonly stateKey: string;
  /** The current key first, then the older ones: every key a state may open with. */
  readonly stateKeys: readonly string[];
  readonly oauthApps: Readonly<Record<string, OAuthApp>>;
  readonly allowedReturnTo: ReadonlySet<string>;
  /** Web origins of the allowed `return_to` values: the only ones CORS lets call refresh. */
  readonly allowedOrigins: ReadonlySet<string>;
  /** oauth4webapi's `customFetch`: undici through the configured dispatcher. */
  readonly fetch: OutboundFetch;
  /** Decides whether a refresh may reach the provider (per client key, per refresh token). */
  readonly refreshLimiter: RefreshLimiter;
  /** Unix time in seconds. */
  now(): number;
  /** Single flight for refreshes: in this process, or across instances through Redis. */
  readonly refreshFlights: RefreshFlights;
  /** Members' signed revocations, kept for the sidecars that follow this broker. */
  readonly revocations: RevocationList;
  /** `POST /revocations` budgets: anonymous ones apart from the members' signed ones. */
  readonly revocationBudgets: RevocationBudgets;
  /** `POST /connect/:id/revoke` budgets: proven calls apart from anonymous ones. */
  readonly revokeBudgets: RevokeBudgets;
  /** Runs the manifests' identity ops right after each token exchange, through the broker's dispatcher. */
  readonly executor: Executor;
  /** Called with each connect's outcome (a hook for a span or metric; never sees a token). */
  readonly onConnect: ((event: ConnectEvent) => void) | undefined;
  /** Called with each revocation's outcome at the provider (a hook for metrics; never sees the token). */
  readonly onRevocation: ((event: { integration: string; outcome: RevocationOutcome }) => void) | undefined;
}

declare module "fastify" {
  interface FastifyInstance {
    broker: BrokerContext;
  }
}

/** The name every route plugin lists in its `dependencies`. */
export const BROKER_CONTEXT = "broker-context";

/** Decorates the instance with `broker`, the one context the route plugins read (never a deps bag passed around). */
export const brokerContextPlugin = fastifyPlugin<{ context: BrokerContext }>(
  async (app, { context }) => {
    app.decorate("broker", context);
  },
  { name: BROKER_CONTEXT, fastify: "5.x" },
);

import type { Registry } from "@eleven-integrations/loader";
import type { Dispatcher } from "undici";
import { z } from "zod";
import type { BrokerLoggerOption } from "../http/logging.js";
import type { RefreshLimiter, RefreshLimits } from "../state/refresh-limiter.js";
import type { ServerTimeouts } from "@eleven-integrations/server-kit";
import type { RevocationOutcome } from "../connect/provider-revocation.js";
import type { RevocationLimits } from "../state/revocation-budgets.js";
import type { RevokeLimits } from "../state/revoke-budgets.js";
import type { RedisTarget } from "../state/redis-connection.js";
import type { ConnectEvent } from "../connect/connect-event.js";
import type { OAuthApp } from "../connect/oauth-app.js";
import { BrokerConfigError, type ConfigIssue, type ConfigResult } from "./config-error.js";
import { KEY_PATTERN } from "@eleven-integrations/schema";
import type { BrokerObservability } from "../metrics/broker-metrics.js";
import { webhookSecretsSchema, type WebhookSecrets } from "../events/webhook-secrets.js";
import type { WebhookReport } from "../events/webhook-outcome.js";

export { BrokerConfigError, type ConfigIssue, type ConfigResult } from "./config-error.js";
export type { OAuthApp } from "../connect/oauth-app.js";

/** What `buildApp` takes. `server.ts` maps its environment onto this. */
export interface BrokerConfig {
  /** The registry to serve. Optional when `release` is given (the registry is then the release's, and must match this one if both are given). */
  registry?: Registry | undefined;
  /**
   * A signed registry release document (`integrations registry sign`), served byte
   * for byte at `GET /registry.signed`; `GET /registry`, `/registry/:id` and the
   * catalog page then serve its manifests. Checked at build: its shape, and that its
   * manifests load to its hash.
   */
  release?: string | Uint8Array;
  /** Release public keys: when given, the broker refuses to start with a release none of them signed. */
  releaseKeys?: string[];
  /** The broker's https origin; the OAuth redirect URI is `publicUrl + "/connect/callback"`. */
  publicUrl: string;
  /** 32 bytes, unpadded base64url: seals and opens the OAuth `state`. Shared by every instance. */
  stateKey: string;
  /** Keys from before a rotation: they still open a state, they never seal one. */
  oldStateKeys?: string[];
  /** `{ "<integration id>": { clientId, clientSecret } }`; an OAuth manifest without an app is served as unavailable. */
  oauthApps?: Record<string, OAuthApp>;
  /** The only `return_to` values accepted, compared as exact strings. */
  allowedReturnTo: string[];
  /** Outbound HTTP (token endpoints). Leave it out in production to get the default that refuses non-public addresses. */
  dispatcher?: Dispatcher;
  /** fastify's `logger` option (`stream` honoured); the broker adds serializers that keep secrets out. */
  logger?: BrokerLoggerOption;
  /** Deadline of one call to a token endpoint, in milliseconds (default 10 000). */
  outboundTimeoutMs?: number;
  /** Unix time in seconds; tests move the clock. */
  now?: () => number;
  /**
   * Redis shared by the broker instances: concurrent refreshes of one refresh
   * token on any of them make one provider call. Without it, the same within one process.
   */
  redisUrl?: string;
  /**
   * Redis Sentinel instead of `redisUrl`: the sentinels (`"host:port"`), asked for the
   * current primary of `redisName` on every (re)connect, so a failover needs no restart.
   */
  redisSentinels?: string[];
  /** The primary's name the sentinels watch (`sentinel monitor <name> ...`); required with `redisSentinels`. */
  redisName?: string;
  /** Request, header, keep-alive and idle timeouts of the broker's own server (defaults: 15 s, 10 s, 5 s, 30 s). */
  timeouts?: ServerTimeouts;
  /** Provider calls for refreshes allowed in a window: global, per address, per client key, per refresh token (defaults: 600, 30, 10, 3 per 60 s); shared through Redis with `redisUrl`. */
  refreshLimits?: RefreshLimits;
  /**
   * `POST /revocations` accepted per minute: anonymous per client address and in all (10, 200);
   * a member's signed ones per member key, per address and in all (10, 30, 600).
   */
  revocationLimits?: Partial<RevocationLimits>;
  /**
   * fastify's `trustProxy`: which proxies may name the client with `X-Forwarded-For`
   * (`true` for any, or addresses and CIDRs). Default off: every budget keyed by
   * address then counts the proxy's address. Set it to exactly the balancer in front.
   */
  trustProxy?: boolean | string | string[];
  /**
   * `POST /connect/:id/revoke` per minute: anonymous calls per client address and in all (20, 120);
   * calls with the bundle's `revoke_proof` per token, per address and in all (3, 60, 600).
   */
  revokeLimits?: Partial<RevokeLimits>;
  /** Called with each connect's outcome (span or metric hook); never given a token. */
  onConnect?: (event: ConnectEvent) => void;
  /** Metrics and readiness to feed (`startBroker` makes them with a metrics port); without it nothing is counted. */
  observability?: BrokerObservability;
  /** Called with each revocation's outcome at the provider (metrics); never given the token. */
  onRevocation?: (event: { integration: string; outcome: RevocationOutcome }) => void;
  /**
   * `{ "<integration id>": "<secret>" | ["<secret>", ...] }`: each app's webhook signing secret(s)
   * (`POST /hooks/:integration`). An integration without one refuses every delivery; there is no
   * "accept unverified" setting.
   */
  webhookSecrets?: WebhookSecrets;
  /** Called with each provider post's outcome (metrics); never given the body or a secret. */
  onWebhook?: (report: WebhookReport) => void;
  /** Replaces the in-process refresh limiter (a shared store when several brokers run); `refreshLimits` is then unused. */
  refreshLimiter?: RefreshLimiter;
}

const SENTINEL = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]{1,253}):(\d{1,5})$/;

/**
 * Where the shared state lives, from `redisUrl` or `redisSentinels` + `redisName`
 * (exclusive); undefined without either. Throws `BrokerConfigError` naming the setting.
 */
export function redisTargetOf(config: Pick<BrokerConfig, "redisUrl" | "redisSentinels" | "redisName">): RedisTarget | undefined {
  const issues: ConfigIssue[] = [];
  if (config.redisSentinels !== undefined && config.redisUrl !== undefined)
    issues.push({ path: "redisSentinels", message: "and redisUrl are exclusive: give one" });
  if (config.redisSentinels === undefined) {
    if (config.redisName !== undefined) issues.push({ path: "redisName", message: "is only used with redisSentinels" });
    if (issues.length > 0) throw new BrokerConfigError(issues);
    return config.redisUrl === undefined ? undefined : { url: config.redisUrl };
  }
  if (config.redisSentinels.length === 0) issues.push({ path: "redisSentinels", message: 'must list at least one sentinel ("host:port")' });
  const sentinels = config.redisSentinels.flatMap((entry, index) => {
    const match = SENTINEL.exec(entry.trim());
    const port = Number(match?.[2]);
    if (match === null || port < 1 || port > 65535) {
      issues.push({ path: `redisSentinels[${index}]`, message: 'must be "host:port"' });
      return [];
    }
    return [{ host: (match[1] as string).replace(/^\[|\]$/g, ""), port }];
  });
  if (config.redisName === undefined || !/^[A-Za-z0-9._-]{1,64}$/.test(config.redisName))
    issues.push({ path: "redisName", message: "is required with redisSentinels: the primary's name the sentinels monitor ([A-Za-z0-9._-])" });
  if (issues.length > 0) throw new BrokerConfigError(issues);
  return { sentinels, name: config.redisName as string };
}

/** The plain-data part of the configuration, as a file or the environment gives it. */
export type BrokerSettings = Pick<BrokerConfig, "publicUrl" | "stateKey" | "oldStateKeys" | "oauthApps" | "allowedReturnTo" | "webhookSecrets">;

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);
/** RFC 8252 private-use schemes are reverse domain names, so they hold a dot: `com.example.app:/done`. */
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/;

function requiredString(what: string) {
  return z.string({ error: (issue) => (issue.input === undefined ? "is required" : `must be ${what}`) });
}

/** The problem with `publicUrl`, or undefined for an https origin. */
export function publicUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute https origin such as "https://broker.example.com"';
  }
  if (url.protocol !== "https:") return "must use https";
  if (url.origin !== value) return `must be an origin only (no path, query or trailing slash): "${url.origin}"`;
  return undefined;
}

/**
 * The problem with one allowed `return_to`, or undefined. Accepted: https URLs,
 * http on a loopback host (development), and RFC 8252 private-use schemes for
 * native apps. No fragment (the broker adds its own) and no user info.
 */
export function returnToProblem(value: string): string | undefined {
  if (value.length > 2048) return "must be at most 2048 characters";
  if (CONTROL.test(value) || /\s/.test(value)) return "must not hold whitespace or control characters";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an absolute URL";
  }
  if (value.includes("#")) return "must not hold a fragment (the broker appends #tokens= or #error=)";
  if (url.username !== "" || url.password !== "") return "must not hold user info";
  if (url.protocol === "https:") return url.hostname === "" ? "must name a host" : undefined;
  if (url.protocol === "http:") return LOOPBACK_HOSTS.has(url.hostname) ? undefined : "http is allowed only on a loopback host; use https";
  if (PRIVATE_USE_SCHEME.test(url.protocol)) return undefined;
  return "must be https, http on loopback, or a reverse-domain app scheme (com.example.app:/path)";
}

const stateKey = requiredString("a string").regex(KEY_PATTERN, "must be 32 bytes of unpadded base64url (43 characters)");

const oauthAppSchema = z.strictObject({
  clientId: requiredString("a string")
    .min(1, "must not be empty")
    .max(512, "must be at most 512 characters")
    .refine((value) => !CONTROL.test(value), "must not hold control characters"),
  clientSecret: requiredString("a string")
    .min(1, "must not be empty")
    .max(4096, "must be at most 4096 characters")
    .refine((value) => !CONTROL.test(value), "must not hold control characters"),
});

export const brokerSettingsSchema = z.strictObject({
  publicUrl: requiredString("a string").superRefine((value, context) => {
    const problem = publicUrlProblem(value);
    if (problem !== undefined) context.addIssue({ code: "custom", message: problem });
  }),
  stateKey,
  oldStateKeys: z.array(stateKey).optional(),
  oauthApps: z.record(z.string().regex(/^[a-z][a-z0-9-]*$/, "must be an integration id"), oauthAppSchema).optional(),
  webhookSecrets: webhookSecretsSchema.optional(),
  allowedReturnTo: z.array(
    requiredString("a string").superRefine((value, context) => {
      const problem = returnToProblem(value);
      if (problem !== undefined) context.addIssue({ code: "custom", message: problem });
    }),
    { error: (issue) => (issue.input === undefined ? "is required (an empty list refuses every connect)" : "must be a list of strings") },
  ),
});

/** Validates the plain-data part of the configuration; every problem is reported, no value is echoed. */
export function validateBrokerSettings(input: unknown): ConfigResult<BrokerSettings> {
  const result = brokerSettingsSchema.safeParse(input);
  if (result.success) return { ok: true, value: toBrokerSettings(result.data) };
  return { ok: false, issues: describeIssues(result.error).map((issue) => ({ path: formatPath(issue.path), message: issue.message })) };
}

/** zod's issues as a person reads them: one per unknown key, a plain word for a bad record key. */
export function describeIssues(error: z.ZodError): { path: PropertyKey[]; message: string }[] {
  return error.issues.flatMap((issue) => {
    if (issue.code === "unrecognized_keys") return issue.keys.map((key) => ({ path: [...issue.path, key], message: "is not a known setting" }));
    if (issue.code === "invalid_key") return [{ path: issue.path, message: "is not an integration id (a lowercase slug)" }];
    return [{ path: issue.path, message: issue.message }];
  });
}

/** `oauthApps.github.clientSecret`, `allowedReturnTo[2]`: the path of a zod issue. */
export function formatPath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const key of path) text += typeof key === "number" ? `[${key}]` : text === "" ? String(key) : `.${String(key)}`;
  return text === "" ? "(configuration)" : text;
}

/** The parsed settings without keys whose value is undefined (exactOptionalPropertyTypes). */
export function toBrokerSettings(settings: z.infer<typeof brokerSettingsSchema>): BrokerSettings {
  const value: BrokerSettings = { publicUrl: settings.publicUrl, stateKey: settings.stateKey, allowedReturnTo: settings.allowedReturnTo };
  if (settings.oldStateKeys !== undefined) value.oldStateKeys = settings.oldStateKeys;
  if (settings.oauthApps !== undefined) value.oauthApps = settings.oauthApps;
  if (settings.webhookSecrets !== undefined) value.webhookSecrets = settings.webhookSecrets;
  return value;
}

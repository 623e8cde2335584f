import type { ExecutorLimits } from "@eleven-integrations/executor";
import type { KeyPair } from "@eleven-integrations/grants";
import type { Registry } from "@eleven-integrations/loader";
import type { FastifyServerOptions } from "fastify";
import type { Dispatcher } from "undici";
import type { RateLimits, SharedState } from "../state/shared-state.js";
import type { ServerTimeouts } from "@eleven-integrations/server-kit";
import type { SidecarObservability } from "../metrics/observability.js";

/** fastify's `logger` option (pino's options, `stream` honoured), as `buildApp` takes it. */
export type SidecarLoggerOption = NonNullable<FastifyServerOptions["logger"]>;

/** What `buildApp` needs; `server.ts` maps files and the environment onto it. */
export interface SidecarConfig {
  /** The manifests this sidecar runs; a grant runs only if its `manifest_hash` is this registry's. */
  registry: Registry;
  /** This bot's X25519 box keys: grants are sealed to the public one. */
  botKeys: KeyPair;
  /** Ed25519 public keys of the members whose grants this bot accepts. */
  trustedMembers: string[];
  /** The bearer token every caller must present; compared in constant time. */
  callerToken: string;
  /** Path of the audit log: created 0600 when missing, one JSON line appended per `/v1/run`, each chained to the one before by `prev`. */
  auditFile: string;
  /**
   * Where the signed checkpoints of the audit journal's head go (one line each: line count,
   * head hash, time, signed with the receipt key), 0600. Default `audit.checkpoints` beside
   * `auditFile` (`checkpointFileFor`), where `integrations audit verify` looks for them.
   */
  auditCheckpointFile?: string;
  /**
   * The key (32 bytes, unpadded base64url) of the audit lines' `args_digest`, a keyed
   * BLAKE2b-256 of the args: without it the digest of a guess cannot be checked.
   * `startSidecar` keeps it in the home folder (`audit-key`, 0600); without it,
   * `buildApp` draws one per process (digests then differ across restarts).
   */
  auditKey?: string;
  /**
   * The Ed25519 key pair (`generateReceiptKeys()`) that signs the receipt of every write
   * that ran; `GET /v1/identity` publishes its public half as `receipt_key`.
   * `startSidecar` keeps it in the home folder (`receipt-key.json`, 0600); without it,
   * `buildApp` draws one per process (receipts then verify only with that process's key).
   */
  receiptKeys?: KeyPair;
  /**
   * The folder files are kept in: what a `result: "file"` read downloads (and the uploads a
   * later run names by `sha256`), mode 0600, removed after an hour, at most 256 MiB in all.
   * `startSidecar` puts it in the home folder (`files/`); without it, a download answers its
   * metadata and its bytes are not kept.
   */
  filesDir?: string;
  /**
   * Rotate the audit log when a line would take it past this many bytes: it is renamed
   * `<auditFile>.<UTC time>` and a fresh file continues the hash chain. Default: never.
   */
  auditRotateBytes?: number;
  /**
   * Where consumed confirmations are journaled (0600), so one used just before a
   * restart stays used after it. Without it they are remembered in memory only.
   */
  replayFile?: string;
  /**
   * Where the outcomes of confirmed writes are journaled (0600) without Redis, so the
   * same call sent again (after a restart too) answers the same envelope. Without it: memory only.
   */
  outcomeFile?: string;
  /** Where standing approvals' budgets are journaled (0600) without Redis, so a restart gives none back. Without it: memory only. */
  approvalFile?: string;
  /** The bot's events, subscriptions and poll memory, mode 0600 (without Redis); absent: memory only. */
  eventFile?: string;
  /** Overrides every poll event's `every`, in milliseconds (tests only). */
  pollEveryMs?: number;
  /** How often expiries are looked at for lifecycle events, in milliseconds; default 15 000. */
  lifecycleEveryMs?: number;
  /** Where revocations are journaled (0600) without Redis, so they survive a restart. Without it: memory only. */
  revocationFile?: string;
  /**
   * Redis (`redis://[user:password@]host:port[/db]`) shared by every sidecar of this bot:
   * consumed confirmations, rate limits and revocations go there, under keys
   * namespaced by the bot's public key. Without it they stay in this process and its journals.
   */
  redisUrl?: string;
  /**
   * Redis Sentinel instead of `redisUrl` (exclusive): the sentinels (`"host:port"`), asked for
   * the current primary of `redisName` on every (re)connect, so a failover needs no restart.
   * A consumed confirmation or a revocation counts once a replica acknowledged it (`WAIT 1`).
   */
  redisSentinels?: string[];
  /** The primary's name the sentinels monitor (`sentinel monitor <name> ...`); required with `redisSentinels`. */
  redisName?: string;
  /** Runs allowed per grant and per integration; defaults in `DEFAULT_RATE_LIMITS` (60 and 300 a minute). */
  rateLimits?: RateLimits;
  /** The state store itself, instead of one built from `redisUrl`/`replayFile` (tests, embedding). Closed with the app. */
  state?: SharedState;
  /**
   * Where outbound requests go. Leave it out in production: the sidecar then uses the
   * executor's hardened dispatcher (public addresses only). Tests point it at loopback stand-ins.
   */
  dispatcher?: Dispatcher;
  /** The executor's bounds (response and result sizes, deadline, retries). */
  limits?: ExecutorLimits;
  /** Request, header, keep-alive and idle timeouts of the sidecar's server (defaults: 15 s, 10 s, 5 s, 30 s). */
  timeouts?: ServerTimeouts;
  /**
   * The key (at least 32 bytes) binding `next_page` tokens to their op and args. Without it
   * each start draws a random one, so pages handed out before a restart are refused
   * (`invalid_args`); several sidecars of one bot that must accept each other's pages share one.
   */
  pageKey?: Uint8Array;
  /** fastify's logger option; requests are logged without headers, query or body whatever is passed. */
  logger?: SidecarLoggerOption;
  /**
   * The broker's signed release to follow (`https://broker.example/registry.signed`;
   * http or https). With `registryKeys`, the sidecar fetches it when it becomes ready
   * and every `registrySyncMs`, and runs each release a trusted key signed whose
   * sequence is above the running one and whose manifests all load.
   */
  registryUrl?: string;
  /**
   * The release sequence the embedded `registry` was published as (`embeddedReleaseSequence`;
   * `startSidecar` reads it from the manifests package's signed release). Default 0. A release
   * at or below it is a rollback, even on a fresh home with no cache.
   */
  embeddedSequence?: number;
  /**
   * The lowest registry release sequence this sidecar runs, from the broker or its cache: a
   * release below it is a `rollback`, even on a fresh home. `startSidecar` sets it to the
   * build's floor (`registryFloor`: above the signed release the manifests package ships,
   * when the embedded registry is not that release) or the operator's `registryMinSequence`,
   * whichever is higher. Default 0.
   */
  registryMinSequence?: number;
  /** Where the newest release ever run is kept, apart from the cache (0600). `startSidecar` puts it in the home folder. */
  registryHighWaterFile?: string;
  /** Trusted release public keys (Ed25519, unpadded base64url); required with `registryUrl`. */
  registryKeys?: string[];
  /** Milliseconds between two syncs; default 60 000, at least 100. */
  registrySyncMs?: number;
  /**
   * Milliseconds between two fetches of the broker's `GET /revocations?since=` (the
   * origin of `registryUrl`); default 5 000, from 100 to 5 000, so a revocation posted
   * to the broker stops the grant here within 5 s. Ignored without `registryUrl`.
   */
  revocationSyncMs?: number;
  /**
   * Where release (and revocation) fetches go. Default: a plain undici Agent (HTTP/1.1), not the
   * executor's hardened one, because the broker is configured by the operator and
   * may sit on loopback or a private network; a release is trusted for its
   * signature, never for where it came from. Redirects are refused either way.
   */
  registryDispatcher?: Dispatcher;
  /** Metrics and readiness to feed (`startSidecar` makes them with `metricsPort`); without it nothing is counted. */
  observability?: SidecarObservability;
  /** The last good release (0600), run at the next start when the broker is unreachable. `startSidecar` puts it in the home folder. */
  registryCacheFile?: string;
  /** Largest release accepted, in bytes; default 16 MiB. */
  registryMaxBytes?: number;
  /** Deadline of one release fetch, in milliseconds; default 30 000. */
  registryFetchTimeoutMs?: number;
}

export type { ExecutorLimits, KeyPair, Registry, RateLimits, SharedState };

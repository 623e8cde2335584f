import type { FastifyServerOptions } from "fastify";

/** How long a server (the broker, or the sidecar waiting on its bot) waits on a client, in milliseconds. */
export interface ServerTimeouts {
  /** The whole request (headers and body) must arrive within this (default 15 000); else 408 and the connection closes. */
  requestMs?: number;
  /** The request headers must arrive within this (default 10 000). */
  headersMs?: number;
  /** An idle keep-alive connection is closed after this (default 5 000). */
  keepAliveMs?: number;
  /** A socket with no activity at all is closed after this (default 30 000). */
  idleMs?: number;
}

const DEFAULTS = { requestMs: 15_000, headersMs: 10_000, keepAliveMs: 5_000, idleMs: 30_000 } as const;

/**
 * fastify's server options for these timeouts. Node 20 ignores a
 * `requestTimeout` shorter than `headersTimeout`, and checks both only every
 * `connectionsCheckingInterval` (30 s by default), so both are set and the
 * check runs every second: a body dripped one byte at a time ends in 408
 * within `requestMs` plus a second.
 */
export function serverTimeoutOptions(timeouts: ServerTimeouts = {}): Pick<FastifyServerOptions, "requestTimeout" | "keepAliveTimeout" | "connectionTimeout"> & {
  http: { headersTimeout: number; connectionsCheckingInterval: number };
} {
  const requestMs = timeouts.requestMs ?? DEFAULTS.requestMs;
  const headersMs = Math.min(timeouts.headersMs ?? DEFAULTS.headersMs, requestMs);
  return {
    requestTimeout: requestMs,
    keepAliveTimeout: timeouts.keepAliveMs ?? DEFAULTS.keepAliveMs,
    connectionTimeout: timeouts.idleMs ?? DEFAULTS.idleMs,
    http: { headersTimeout: headersMs, connectionsCheckingInterval: 1_000 },
  };
}

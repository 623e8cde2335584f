import { Redis, type RedisOptions } from "ioredis";
import type { RedisTarget } from "./redis-target.js";

export interface RedisConnectionOptions {
  /** How long one command may take before it counts as a failure, in ms. Default 1000. */
  commandTimeoutMs?: number;
  /** Told about connection errors (never the URL, which may hold a password). */
  onError?: (error: Error) => void;
}

/**
 * An ioredis client that fails fast instead of queueing while Redis is
 * unreachable (no offline queue, one attempt per command, a command deadline),
 * and reconnects in the background forever (every 100 ms to 1 s), so the
 * callers see an error at once while it is down and work again, without a
 * restart, once it is back.
 *
 * With Sentinel (`{ sentinels, name }`) each (re)connect asks the sentinels for
 * the current primary, and a demoted primary's `READONLY` answer makes it
 * reconnect, so a failover needs no restart. A URL string is a `{ url }` target.
 */
export function connectRedis(target: RedisTarget | string, options: RedisConnectionOptions = {}): Redis {
  const common: RedisOptions = {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs ?? 1000,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(100 * times, 1000),
    lazyConnect: true,
    // 1: reconnect (asking the sentinels anew); the command that met READONLY fails and is not resent.
    reconnectOnError: (error) => (error.message.startsWith("READONLY") ? 1 : false),
  };
  const resolved = typeof target === "string" ? { url: target } : target;
  const client =
    "url" in resolved
      ? new Redis(resolved.url, common)
      : new Redis({ ...common, sentinels: resolved.sentinels, name: resolved.name, sentinelRetryStrategy: (times: number) => Math.min(100 * times, 1000) });
  client.on("error", (error: Error) => options.onError?.(error));
  return client;
}

/** Connects and waits up to `timeoutMs` for the client to be ready; resolves false (still reconnecting) rather than fail. */
export async function waitUntilReady(client: Redis, timeoutMs = 2000): Promise<boolean> {
  if (client.status === "ready") return true;
  if (client.status === "wait") client.connect().catch(() => undefined);
  return new Promise((resolve) => {
    const done = (ready: boolean) => {
      clearTimeout(timer);
      client.off("ready", onReady);
      resolve(ready);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(client.status === "ready"), timeoutMs);
    client.on("ready", onReady);
  });
}

/** Closes the connection: politely when it is up, at once otherwise. */
export async function closeRedis(client: Redis): Promise<void> {
  if (client.status === "ready") {
    try {
      await client.quit();
      return;
    } catch {
      // fall through
    }
  }
  client.disconnect(false);
}

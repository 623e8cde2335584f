import { Redis } from "ioredis";

/** Where the broker's shared state lives: one Redis, or a Sentinel-watched primary. */
export type RedisTarget = { url: string } | { sentinels: { host: string; port: number }[]; name: string };

/**
 * A client that fails fast rather than queueing while Redis is away (each caller
 * decides what that means for it) and keeps reconnecting. With Sentinel it asks
 * the sentinels for the current primary on each (re)connect, so a failover needs no restart.
 */
export function createRedisClient(target: RedisTarget): Redis {
  const common = {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 1000,
    connectTimeout: 2000,
    retryStrategy: (times: number) => Math.min(100 * times, 1000),
    // A demoted primary answers READONLY: reconnect, which asks the sentinels for the new one.
    reconnectOnError: (error: Error) => (error.message.startsWith("READONLY") ? 2 : false) as 2 | false,
  };
  const client =
    "url" in target
      ? new Redis(target.url, common)
      : new Redis({ ...common, sentinels: target.sentinels, name: target.name, sentinelRetryStrategy: (times: number) => Math.min(100 * times, 1000) });
  client.on("error", () => undefined);
  return client;
}

/** Waits at most `ms` for the client to be ready; a Redis that is down does not keep the broker from starting. */
export async function waitReady(client: Redis, ms = 2000): Promise<void> {
  if (client.status === "ready") return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      client.off("ready", done);
      resolve();
    }
    client.once("ready", done);
  });
}

export async function closeClient(client: Redis): Promise<void> {
  if (client.status === "ready") await client.quit().catch(() => client.disconnect());
  else client.disconnect();
}

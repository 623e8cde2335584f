import type { FastifyBaseLogger } from "fastify";
import type { SidecarConfig } from "../config/config.js";
import { LocalState } from "./local-state.js";
import { RedisState } from "./redis-state.js";
import { redisTargetOf } from "./redis-target.js";
import type { SharedState } from "./shared-state.js";

/** How often a repeated Redis warning is logged: ioredis reports every reconnect attempt. */
const WARNING_EVERY_MS = 30_000;

/**
 * The bot's shared state: Redis when `redisUrl` or `redisSentinels` is set, else
 * this process with its journals. Redis's troubles are logged at most once every
 * 30 s each, by their kind, never their message (which can name the Redis URL).
 */
export function createSharedState(config: SidecarConfig, log: () => FastifyBaseLogger): SharedState {
  const target = redisTargetOf(config);
  if (target === undefined) {
    return new LocalState({
      ...(config.replayFile === undefined ? {} : { replayFile: config.replayFile }),
      ...(config.outcomeFile === undefined ? {} : { outcomeFile: config.outcomeFile }),
      ...(config.revocationFile === undefined ? {} : { revocationFile: config.revocationFile }),
      ...(config.approvalFile === undefined ? {} : { approvalFile: config.approvalFile }),
      ...(config.rateLimits === undefined ? {} : { rateLimits: config.rateLimits }),
    });
  }
  const unreachable = throttled();
  const lone = throttled();
  return new RedisState({
    ...target,
    namespace: config.botKeys.publicKey,
    ...(config.revocationFile === undefined ? {} : { revocationFile: config.revocationFile }),
    ...(config.rateLimits === undefined ? {} : { rateLimits: config.rateLimits }),
    onError: (error) => {
      if (unreachable()) log().warn({ kind: errorKind(error) }, "redis unreachable: writes are refused until it is back");
    },
    onLonePrimary: (connected) => {
      if (lone()) {
        log().warn(
          { connected_replicas: connected },
          "the redis primary has fewer replicas than asked for: confirmations are kept on the primary alone until one attaches",
        );
      }
    },
  });
}

/** True at most once every `WARNING_EVERY_MS`. */
function throttled(): () => boolean {
  let last = 0;
  return () => {
    if (Date.now() - last < WARNING_EVERY_MS) return false;
    last = Date.now();
    return true;
  };
}

/** An error's code or name, never its message (which can name the Redis URL). */
function errorKind(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  return typeof code === "string" ? code : error.name;
}

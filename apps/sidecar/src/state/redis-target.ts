import { SidecarStartError } from "../start/start-error.js";

/** Where a bot's shared state lives: one Redis, or the primary a set of Redis Sentinels watch. */
export type RedisTarget = { url: string } | { sentinels: { host: string; port: number }[]; name: string };

/** The Redis settings of a sidecar's configuration. */
export interface RedisSettings {
  redisUrl?: string;
  redisSentinels?: string[];
  redisName?: string;
}

const SENTINEL = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]{1,253}):(\d{1,5})$/;
const NAME = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * The target of `redisUrl`, or of `redisSentinels` + `redisName` (exclusive); undefined
 * without either. Throws `SidecarStartError` (`invalid_setting`) naming every wrong
 * setting, never quoting the URL (it may hold a password).
 */
export function redisTargetOf(settings: RedisSettings): RedisTarget | undefined {
  const problems: string[] = [];
  if (settings.redisSentinels !== undefined && settings.redisUrl !== undefined) problems.push("redisSentinels and redisUrl are exclusive: give one");
  if (settings.redisSentinels === undefined) {
    if (settings.redisName !== undefined) problems.push("redisName is only used with redisSentinels");
    if (problems.length > 0) throw new SidecarStartError("invalid_setting", problems.join("; "));
    return settings.redisUrl === undefined ? undefined : { url: settings.redisUrl };
  }
  if (settings.redisSentinels.length === 0) problems.push('redisSentinels must list at least one sentinel ("host:port")');
  const sentinels = settings.redisSentinels.flatMap((entry, index) => {
    const match = SENTINEL.exec(entry.trim());
    const port = Number(match?.[2]);
    if (match === null || port < 1 || port > 65535) {
      problems.push(`redisSentinels[${index}] must be "host:port"`);
      return [];
    }
    return [{ host: (match[1] as string).replace(/^\[|\]$/g, ""), port }];
  });
  if (settings.redisName === undefined || !NAME.test(settings.redisName)) {
    problems.push("redisName is required with redisSentinels: the primary's name the sentinels monitor ([A-Za-z0-9._-], at most 64)");
  }
  if (problems.length > 0) throw new SidecarStartError("invalid_setting", problems.join("; "));
  return { sentinels, name: settings.redisName as string };
}

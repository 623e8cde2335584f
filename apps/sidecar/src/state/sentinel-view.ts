import { Redis } from "ioredis";

/** Where the sentinels are and which primary they watch. */
export interface SentinelSet {
  sentinels: { host: string; port: number }[];
  name: string;
}

/** A flat `[field, value, ...]` reply of `SENTINEL MASTER` / `SENTINEL REPLICAS`, as a record. */
function fields(reply: unknown): Record<string, string> {
  const record: Record<string, string> = Object.create(null);
  if (!Array.isArray(reply)) return record;
  for (let index = 0; index + 1 < reply.length; index += 2) {
    const key = reply[index];
    const value = reply[index + 1];
    if (typeof key === "string" && typeof value === "string") record[key] = value;
  }
  return record;
}

function flagsOf(entry: Record<string, string>): string[] {
  return (entry.flags ?? "").split(",");
}

/**
 * Whether the sentinels say the primary whose `run_id` is given stands alone: they
 * name it as the primary, no failover is under way, and every replica they know is
 * down (`s_down` or `o_down`). That is the one case where a consumption may count
 * with no replica's acknowledgement: nothing the sentinels could promote over this
 * primary holds an older copy. Asked of the first sentinel that answers within
 * `timeoutMs`; none answering, or anything else, is false (fail closed).
 */
export async function primaryStandsAlone(set: SentinelSet, runId: string, timeoutMs: number): Promise<boolean> {
  for (const { host, port } of set.sentinels) {
    const client = new Redis({
      host,
      port,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      connectTimeout: timeoutMs,
      commandTimeout: timeoutMs,
      retryStrategy: () => null,
    });
    client.on("error", () => undefined);
    try {
      await client.connect();
      const primary = fields(await client.call("SENTINEL", "MASTER", set.name));
      const replicas = await client.call("SENTINEL", "REPLICAS", set.name);
      if (primary.runid !== runId) return false;
      if (flagsOf(primary).some((flag) => flag !== "master")) return false;
      if (!Array.isArray(replicas)) return false;
      return replicas.every((replica) => flagsOf(fields(replica)).some((flag) => flag === "s_down" || flag === "o_down"));
    } catch {
      // the next sentinel
    } finally {
      client.disconnect();
    }
  }
  return false;
}

/** `run_id` of `INFO server`, or undefined. */
export function runIdOf(info: string): string | undefined {
  return /^run_id:([0-9a-f]+)/m.exec(info)?.[1];
}

/** `connected_slaves` of `INFO replication`; 0 when absent. */
export function connectedReplicasOf(info: string): number {
  const match = /^connected_slaves:(\d+)/m.exec(info);
  return match === null ? 0 : Number(match[1]);
}

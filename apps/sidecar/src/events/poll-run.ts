import { matchesSubscriptionArgs, polledEvent, polledItemKey } from "@eleven-integrations/events";
import type { ManifestEvent } from "@eleven-integrations/schema";
import type { DeliveredEvent } from "@eleven-integrations/sidecar-protocol";
import type { FastifyBaseLogger } from "fastify";
import { runCall, type CallRunner } from "../call/flows.js";
import type { RegistrySnapshot } from "../registry/live-registry.js";
import type { RunAnswer } from "../run/answers.js";
import { MAX_SEEN_KEYS, polledEventId, type PollMemory } from "./event-store.js";

type SubscriptionArgs = Readonly<Record<string, string | number | boolean>>;

/** What one poll found: the events it makes (none on the baseline) and the memory to keep, or the run's refusal. */
export type PollOutcome = { ok: true; events: DeliveredEvent[]; memory: PollMemory } | { ok: false; answer: Extract<RunAnswer, { status: "error" }> };

const TEMPLATE = /^\{([a-z][a-z0-9_]{0,63})\}$/;

/**
 * The poll op's args: each `poll.args` value a constant or a whole `{arg}` of the
 * subscription's args (an arg the subscription did not give is left out), and
 * `poll.since` filled with the start of the last good poll.
 */
export function pollArgs(event: ManifestEvent, args: SubscriptionArgs | undefined, since: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.poll?.args ?? {})) {
    const template = TEMPLATE.exec(String(value));
    if (template === null) out[name] = String(value);
    else if (args?.[template[1] ?? ""] !== undefined) out[name] = String(args[template[1] ?? ""]);
  }
  if (event.poll?.since !== undefined) out[event.poll.since] = since;
  return out;
}

/** The subscription's args that the poll op does not already apply: matched against each item (fail closed on an undeclared one). */
function filterArgs(event: ManifestEvent, args: SubscriptionArgs | undefined): SubscriptionArgs | undefined {
  if (args === undefined) return undefined;
  const templated = new Set(
    Object.values(event.poll?.args ?? {})
      .map((value) => TEMPLATE.exec(String(value))?.[1])
      .filter((name): name is string => name !== undefined),
  );
  const rest = Object.entries(args).filter(([name]) => !templated.has(name));
  return rest.length === 0 ? undefined : Object.fromEntries(rest);
}

function itemsOf(data: unknown): unknown[] {
  if (Array.isArray(data)) return data;
  return data === null || data === undefined ? [] : [data];
}

export interface PollInput {
  sid: string;
  integration: string;
  event: ManifestEvent;
  args: SubscriptionArgs | undefined;
  /** The sealed grant the op runs under. */
  grant: string;
  /** Undefined on the baseline: its items are remembered, none emitted. */
  memory: PollMemory | undefined;
  /** Start of this poll. */
  startedAt: Date;
  snapshot: RegistrySnapshot;
  runner: CallRunner;
  log: FastifyBaseLogger;
}

/**
 * Runs the poll op through the sidecar's own pipeline (`runCall`: open, admit,
 * decide, send, settle; its audit line written like a bot's read), then turns the
 * items whose key it has not seen into events (`polledEvent`: only the declared
 * `pick`, the `line` rendered), filtered by the subscription's args.
 */
export async function runPoll(input: PollInput): Promise<PollOutcome> {
  const { event, memory } = input;
  const since = memory?.since ?? input.startedAt.toISOString();
  const result = await runCall(
    { grant: input.grant, op: event.poll?.op ?? "", args: pollArgs(event, input.args, since) },
    input.snapshot,
    input.runner,
    input.log,
  );
  const answer = (typeof result.payload === "string" ? JSON.parse(result.payload) : result.payload) as RunAnswer;
  if (answer.status !== "ok") {
    if (answer.status === "error") return { ok: false, answer };
    return {
      ok: false,
      answer: {
        status: "error",
        integration: input.integration,
        op: event.poll?.op ?? "",
        error: { code: "access_denied", message: "the poll op is not a read", next_action: "Report it: a poll op must be a read." },
      },
    };
  }
  const manifest = input.snapshot.registry.get(input.integration);
  const seen = new Set(memory?.seen ?? []);
  const keys: string[] = [];
  const events: DeliveredEvent[] = [];
  const at = Math.floor(input.startedAt.getTime() / 1000);
  const filter = filterArgs(event, input.args);
  for (const item of itemsOf((answer as { data?: unknown }).data)) {
    const key = polledItemKey(event, item);
    if (key === undefined) continue;
    keys.push(key);
    if (memory === undefined || seen.has(key) || manifest === undefined) continue;
    const built = polledEvent({ manifest, event: event.id, item });
    if (!built.ok) continue;
    if (!matchesSubscriptionArgs(event, filter, Buffer.from(JSON.stringify(item)))) continue;
    events.push({
      event_id: polledEventId(input.sid, event.id, key),
      sid: input.sid,
      integration: input.integration,
      event: built.event,
      at,
      data: built.data,
      line: built.line,
    });
  }
  // The newest keys are kept: the ones just listed, then what was remembered before, at most MAX_SEEN_KEYS.
  const remembered = [...new Set([...keys, ...(memory?.seen ?? [])])].slice(0, MAX_SEEN_KEYS);
  return { ok: true, events, memory: { seen: remembered, since: input.startedAt.toISOString() } };
}

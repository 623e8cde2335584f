import { z } from "zod";
import { REFUSAL_CODES } from "./envelope-schemas.js";

/** Longest wait of one `POST /v1/events`, in milliseconds (the route's own timeout allows it). */
export const MAX_EVENTS_WAIT_MS = 30_000;
/** Longest cursor a bot sends back. */
export const MAX_EVENTS_CURSOR_LENGTH = 200;
/** Most events one answer carries. */
export const MAX_EVENTS_PER_ANSWER = 100;

/** `POST /v1/subscriptions`: a subscription (`es1.…`) the member sealed to this bot, and for a poll subscription the live grant it runs under. */
export const subscribeBodySchema = z.strictObject({
  subscription: z.string().min(1).describe("A subscription (`es1.…`) the member signed and sealed to this bot."),
  grant: z.string().min(1).optional().describe("A grant (`eg1.…`) of the same member and integration: required when the subscription names a poll event."),
});

/** `POST /v1/events`: the cursor of the last answer (`next`), and how long to wait for a first event. */
export const eventsBodySchema = z.strictObject({
  after: z.string().min(1).max(MAX_EVENTS_CURSOR_LENGTH).optional().describe("The `next` of the previous answer: acknowledges every event before it."),
  wait_ms: z.number().int().min(0).max(MAX_EVENTS_WAIT_MS).optional().describe("Wait this long for an event when none is there (default 0)."),
});

export type SubscribeBody = z.infer<typeof subscribeBodySchema>;
export type EventsBody = z.infer<typeof eventsBodySchema>;

/** One event as the bot receives it: a declared event's picked fields and rendered line, or a lifecycle event (`integration: "eleven"`). */
export const deliveredEventSchema = z.strictObject({
  event_id: z.string().describe("Stable id: the same event is never delivered twice under another id. Name it in `POST /v1/run { event_id }`."),
  sid: z.string().describe("The subscription (or, for a lifecycle event, the subscription or grant it is about)."),
  integration: z.string(),
  event: z.string(),
  at: z.number().int().describe("When the sidecar learned it (Unix seconds)."),
  data: z.record(z.string(), z.unknown()),
  line: z.string(),
});
export type DeliveredEvent = z.infer<typeof deliveredEventSchema>;

export const eventsAnswerSchema = z.strictObject({
  events: z.array(deliveredEventSchema),
  next: z.string().describe("Send it back as `after`: it acknowledges these events."),
  truncated: z.literal(true).optional().describe("Some events after the cursor are no longer kept (retention passed, or the store was lost)."),
});
export type EventsAnswer = z.infer<typeof eventsAnswerSchema>;

export const SUBSCRIPTION_REFUSAL_CODES = ["subscription_invalid", "grant_required", ...REFUSAL_CODES] as const;

export const subscribeAnswerSchema = z.discriminatedUnion("status", [
  z.strictObject({
    status: z.literal("ok"),
    sid: z.string(),
    integration: z.string(),
    events: z.array(z.string()),
    exp: z.number().int(),
    polls: z.array(
      z.strictObject({ event: z.string(), every: z.number().int(), baseline: z.number().int().describe("Items seen by the first poll (not emitted).") }),
    ),
  }),
  z.strictObject({
    status: z.literal("error"),
    error: z.strictObject({
      code: z
        .string()
        .describe(
          "subscription_invalid, grant_required, a run refusal (grant_invalid, grant_expired, rate_limited, unavailable…), or the first poll's error code.",
        ),
      message: z.string(),
      retry_after_s: z.number().int().min(0).optional(),
      next_action: z.string(),
    }),
  }),
]);
export type SubscribeAnswer = z.infer<typeof subscribeAnswerSchema>;

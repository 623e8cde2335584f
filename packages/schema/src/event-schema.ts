import { z } from "zod";
import { ARG_NAME, dotPath, plainText, text } from "./field-schemas.js";
import { pickSchema } from "./operation-schema.js";
import { OP_ID_PATTERN } from "./patterns.js";
import { placeholderNames } from "./placeholders.js";
import { plainTextProblem } from "./plain-text.js";
import { splitLine } from "./preview-line.js";
import { rulesCheck } from "./rule-checks.js";

/**
 * The closed list of webhook dialects (one home: `@eleven-integrations/events` verifies each,
 * the schema refuses any other name). Adding one means adding its verifier there.
 */
export const WEBHOOK_DIALECTS = Object.freeze([
  "github",
  "slack",
  "stripe",
  "standard-webhooks",
  "linear",
  "pagerduty",
  "sentry",
  "zendesk",
  "intercom",
  "twilio",
  "box",
  "microsoft-graph",
  "asana",
  "jira",
] as const);
export type WebhookDialect = (typeof WEBHOOK_DIALECTS)[number];

/** The shortest poll interval, in seconds. */
export const MIN_POLL_EVERY_SECONDS = 30;
/** The longest poll interval, in seconds (a day). */
export const MAX_POLL_EVERY_SECONDS = 86_400;

const HEADER_NAME = /^[A-Za-z0-9-]{1,64}$/;

/**
 * Where one value of a webhook request is: a header (by name, any case) or a dot-path of the
 * JSON body. Exactly one of the two.
 */
export const requestPlaceSchema = z
  .strictObject({
    header: z.string().regex(HEADER_NAME, "must be a header name (letters, digits, -)").optional(),
    body: dotPath.optional(),
  })
  .check(
    rulesCheck((place: { header?: string | undefined; body?: string | undefined }, issue) => {
      if ((place.header === undefined) === (place.body === undefined)) issue([], "names exactly one of header or body");
    }),
  );
export type RequestPlace = z.infer<typeof requestPlaceSchema>;

/** One condition on the request that says it is this event: the value at a place equals one of `in`. */
export const typeConditionSchema = z
  .strictObject({
    header: z.string().regex(HEADER_NAME, "must be a header name (letters, digits, -)").optional(),
    body: dotPath.optional(),
    in: z.array(z.string().min(1).max(200)).min(1).max(20),
  })
  .check(
    rulesCheck((place: { header?: string | undefined; body?: string | undefined }, issue) => {
      if ((place.header === undefined) === (place.body === undefined)) issue([], "names exactly one of header or body");
    }),
  );
export type TypeCondition = z.infer<typeof typeConditionSchema>;

/** `source: "webhook"`: how the broker verifies the post and tells this event apart. */
export const webhookSourceSchema = z.strictObject({
  /** One dialect of the closed list. */
  verify: z.enum(WEBHOOK_DIALECTS),
  /** Every condition must hold for a verified request to be this event (`X-GitHub-Event` is `issues`, `action` is `opened`). */
  type: z.array(typeConditionSchema).min(1).max(4),
  /** Where the delivery id (the dedup key) is. */
  delivery: requestPlaceSchema,
  /** Where the provider account the event belongs to is (routing: only bots of a member who connected it). */
  account: requestPlaceSchema.optional(),
});
export type WebhookSource = z.infer<typeof webhookSourceSchema>;

/** `source: "poll"`: a read op of the manifest run on a schedule by the sidecar. */
export const pollSourceSchema = z.strictObject({
  /** A read op of this manifest. */
  op: z.string().regex(OP_ID_PATTERN, "must name a read op of this manifest (namespace.verb)"),
  /** The op's args, each a template over the event's args (`"{calendar}"`) or a constant. */
  args: z.record(z.string().regex(ARG_NAME, "must name one of the op's args"), z.string().min(1).max(500)).optional(),
  /** Seconds between polls: at least 30. */
  every: z.number().int().min(MIN_POLL_EVERY_SECONDS, `must be at least ${MIN_POLL_EVERY_SECONDS} seconds`).max(MAX_POLL_EVERY_SECONDS),
  /** The picked field of each item that identifies it (what the sidecar remembers as seen). */
  key: dotPath,
  /** An arg of the op the sidecar fills with the start of the last successful poll (ISO 8601 UTC). */
  since: z.string().regex(ARG_NAME).optional(),
});
export type PollSource = z.infer<typeof pollSourceSchema>;

/** A filter arg of an event: what a subscription may narrow it to. */
export const eventArgSchema = z.strictObject({
  description: plainText(500).optional(),
  required: z.boolean().optional(),
  /** The payload path (webhook) or picked item path (poll) the value must equal. */
  path: dotPath.optional(),
});
export type EventArg = z.infer<typeof eventArgSchema>;

const eventFields = z.strictObject({
  id: z.string().regex(OP_ID_PATTERN, "must be namespace.verb (lowercase letters, digits, _)"),
  label: text(200),
  description: plainText(500).optional(),
  source: z.enum(["webhook", "poll"]),
  webhook: webhookSourceSchema.optional(),
  poll: pollSourceSchema.optional(),
  args: z.record(z.string().regex(ARG_NAME, "arg names are [a-z][a-z0-9_]*"), eventArgSchema).optional(),
  /** Only these fields of the payload (webhook) or of each polled item flow to the bot. */
  pick: pickSchema,
  /** What the member and the bot read: a template over the picked fields, rendered like a preview line. */
  line: z.string().max(500),
});

export type ManifestEvent = z.infer<typeof eventFields>;

/** The rules within one event: its source block, its line's placeholders, its args' paths. */
export function eventRules(event: ManifestEvent, issue: (path: PropertyKey[], message: string) => void): void {
  if (event.source === "webhook") {
    if (event.webhook === undefined) issue(["webhook"], 'is required when source is "webhook"');
    if (event.poll !== undefined) issue(["poll"], 'belongs to source "poll", not "webhook"');
  } else {
    if (event.poll === undefined) issue(["poll"], 'is required when source is "poll"');
    if (event.webhook !== undefined) issue(["webhook"], 'belongs to source "webhook", not "poll"');
  }
  const fields = event.pick.fields ?? [];
  if (fields.length === 0) issue(["pick", "fields"], "an event names the fields that flow to the bot (at least one): nothing else does");
  const problem = plainTextProblem(event.line);
  if (problem !== undefined) issue(["line"], problem);
  if (event.line.trim().length === 0) issue(["line"], "must not be empty");
  for (const part of splitLine(event.line)) {
    if (part.kind === "field" && !fields.includes(part.path)) {
      issue(["line"], `{${part.path}} is not a picked field of this event (pick.fields: ${fields.length === 0 ? "none" : fields.join(", ")})`);
    }
  }
  const args = event.args ?? {};
  for (const name of Object.keys(args)) {
    const arg = args[name] as EventArg;
    if (event.source === "webhook" && arg.path === undefined)
      issue(["args", name, "path"], "a webhook event's arg filters the payload: it names the path it matches");
  }
  if (event.source === "poll" && event.poll !== undefined) {
    const used = new Set<string>();
    for (const template of Object.values(event.poll.args ?? {})) for (const part of placeholderNames(template)) used.add(part);
    for (const name of used) if (!Object.hasOwn(args, name)) issue(["poll", "args"], `placeholder {${name}} names no arg of this event`);
    for (const name of Object.keys(args)) {
      if (!used.has(name) && (args[name] as EventArg).path === undefined)
        issue(["args", name], "is neither used by the poll's args nor matched against a path");
    }
  }
}

export const eventSchema = eventFields.check(rulesCheck(eventRules));

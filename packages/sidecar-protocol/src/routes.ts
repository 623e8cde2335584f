import type { z } from "zod";
import { opsBodySchema, policyBodySchema, revokeBodySchema, runBodySchema, searchBodySchema, whoamiBodySchema } from "./body-schemas.js";
import { runAnswerSchema } from "./envelope-schemas.js";
import { identityAnswerSchema } from "./identity-schema.js";
import { opsAnswerSchema } from "./palette-schema.js";
import { policyAnswerSchema } from "./policy-schema.js";
import { eventsAnswerSchema, eventsBodySchema, subscribeAnswerSchema, subscribeBodySchema } from "./events-schema.js";
import { revokeAnswerSchema } from "./revoke-schema.js";
import { searchAnswerSchema } from "./search-schema.js";
import { whoamiAnswerSchema } from "./whoami-schema.js";

export interface SidecarRoute {
  method: "GET" | "POST";
  path: `/v1/${string}`;
  /** Names the route in the description (`operationId`) and in the client. */
  name: string;
  summary: string;
  /** The JSON body a POST takes: strict, no coercion, unknown keys refused. */
  body?: z.ZodType;
  /** The 200 answer's body. */
  answer: z.ZodType;
}

/** Every route of the sidecar's contract; the description and the client are made from this table. */
export const SIDECAR_ROUTES = {
  identity: {
    method: "GET",
    path: "/v1/identity",
    name: "identity",
    summary: "The bot's box key members seal grants to, its receipt key, and the registry it runs.",
    answer: identityAnswerSchema,
  },
  ops: {
    method: "POST",
    path: "/v1/ops",
    name: "ops",
    summary: "The palette a grant enables: its ops with their args, confirm templates and paging.",
    body: opsBodySchema,
    answer: opsAnswerSchema,
  },
  run: {
    method: "POST",
    path: "/v1/run",
    name: "run",
    summary: "Runs one op of the grant's integration. A write answers confirmation_required (the chip) until it carries the member's confirmation.",
    body: runBodySchema,
    answer: runAnswerSchema,
  },
  search: {
    method: "POST",
    path: "/v1/search",
    name: "search",
    summary: "Ranks the ops of the sidecar's registry for some words, each with whether the grants given run it now, or what is missing.",
    body: searchBodySchema,
    answer: searchAnswerSchema,
  },
  revoke: {
    method: "POST",
    path: "/v1/revoke",
    name: "revoke",
    summary: "Records a revocation the grant's member signed: every sidecar of the bot refuses the grant from now on.",
    body: revokeBodySchema,
    answer: revokeAnswerSchema,
  },
  policy: {
    method: "POST",
    path: "/v1/policy",
    name: "policy",
    summary:
      "Reviews a grant's policy and the standing approvals given: per op, whether it runs, asks the member or is blocked, and each approval's budget left.",
    body: policyBodySchema,
    answer: policyAnswerSchema,
  },
  whoami: {
    method: "POST",
    path: "/v1/whoami",
    name: "whoami",
    summary: "Runs the integration's identity op now: the account the grant's credential acts as.",
    body: whoamiBodySchema,
    answer: whoamiAnswerSchema,
  },
  subscribe: {
    method: "POST",
    path: "/v1/subscriptions",
    name: "subscribe",
    summary:
      "Adds a subscription the member signed (`es1.`): a poll subscription needs a live grant of the same member and integration, and its first poll (the baseline) emits nothing.",
    body: subscribeBodySchema,
    answer: subscribeAnswerSchema,
  },
  events: {
    method: "POST",
    path: "/v1/events",
    name: "events",
    summary: "Long poll (up to 30 s) for the bot's events after a cursor: at least once, never the same event_id twice; `next` acknowledges them.",
    body: eventsBodySchema,
    answer: eventsAnswerSchema,
  },
} as const satisfies Record<string, SidecarRoute>;

/** The path the sidecar serves its own description at (behind the caller token, like every route). */
export const OPENAPI_PATH = "/v1/openapi.json";

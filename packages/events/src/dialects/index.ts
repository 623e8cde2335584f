import { asana } from "./asana.js";
import { box } from "./box.js";
import type { Dialect } from "./dialect.js";
import { github } from "./github.js";
import { intercom } from "./intercom.js";
import { jira } from "./jira.js";
import { linear } from "./linear.js";
import { microsoftGraph } from "./microsoft-graph.js";
import { pagerduty } from "./pagerduty.js";
import { sentry } from "./sentry.js";
import { slack } from "./slack.js";
import { standardWebhooks } from "./standard-webhooks.js";
import { stripe } from "./stripe.js";
import { twilio } from "./twilio.js";
import { zendesk } from "./zendesk.js";

/** The closed list of webhook dialects: a manifest's `verify` names one of these, nothing else. */
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

export const DIALECTS: Readonly<Record<WebhookDialect, Dialect>> = Object.freeze({
  github,
  slack,
  stripe,
  "standard-webhooks": standardWebhooks,
  linear,
  pagerduty,
  sentry,
  zendesk,
  intercom,
  twilio,
  box,
  "microsoft-graph": microsoftGraph,
  asana,
  jira,
});

export function isWebhookDialect(name: unknown): name is WebhookDialect {
  return typeof name === "string" && Object.hasOwn(DIALECTS, name);
}

/** The header and documentation page of each dialect (for the README table and the broker's errors). */
export function describeDialect(dialect: WebhookDialect): { header: string; documentation: string } {
  const { header, documentation } = DIALECTS[dialect];
  return { header, documentation };
}

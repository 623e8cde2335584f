import { asana } from "./asana.js";
import { box } from "./box.js";
import type { WebhookDialect } from "@eleven-integrations/schema";
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

// The closed list has one home, the schema (a manifest's `verify` is checked against it); the
// record below must name a verifier for each, or this does not compile.
export { WEBHOOK_DIALECTS, type WebhookDialect } from "@eleven-integrations/schema";

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

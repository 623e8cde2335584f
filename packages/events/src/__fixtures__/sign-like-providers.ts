// Test-only: signs a request as each provider documents, so the attack tests can start from a
// request that verifies and change one thing. Not exported from the package.
import { createHash, createHmac } from "node:crypto";
import type { WebhookDialect } from "../dialects/index.js";
import { signStandardWebhook } from "../standard-webhook-signing.js";

export interface SignedRequest {
  headers: Record<string, string>;
  body: Buffer;
  url?: string;
}

const hex = (algorithm: string, key: string | Buffer, data: string | Buffer) => createHmac(algorithm, key).update(data).digest("hex");
const b64 = (algorithm: string, key: string | Buffer, data: string | Buffer) => createHmac(algorithm, key).update(data).digest("base64");

export const SECRETS: Record<WebhookDialect, string> = {
  github: "gh-secret",
  slack: "slack-signing-secret",
  stripe: "whsec_stripe_endpoint_secret",
  "standard-webhooks": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  linear: "lin_wh_secret",
  pagerduty: "pd-secret",
  sentry: "sentry-client-secret",
  zendesk: "dGhpc19zZWNyZXRfaXNfZm9yX3Rlc3Rpbmdfb25seQ==",
  intercom: "intercom-client-secret",
  twilio: "twilio-auth-token",
  box: "box-primary-key",
  "microsoft-graph": "client-state-secret",
  asana: "asana-hook-secret",
  jira: "jira-secret",
};

/** The dialects that sign a timestamp, and their tolerance in seconds. */
export const TOLERANCE: Partial<Record<WebhookDialect, number>> = {
  slack: 300,
  stripe: 300,
  "standard-webhooks": 300,
  linear: 60,
  zendesk: 300,
  box: 600,
};

export function signLikeProvider(dialect: WebhookDialect, secret: string, now: number, bodyText?: string): SignedRequest {
  const iso = new Date(now * 1000).toISOString();
  switch (dialect) {
    case "github": {
      const body = Buffer.from(bodyText ?? '{"action":"opened"}');
      return { body, headers: { "X-Hub-Signature-256": `sha256=${hex("sha256", secret, body)}`, "X-GitHub-Delivery": "d-1" } };
    }
    case "slack": {
      const body = Buffer.from(bodyText ?? '{"type":"event_callback"}');
      return {
        body,
        headers: {
          "X-Slack-Request-Timestamp": String(now),
          "X-Slack-Signature": `v0=${hex("sha256", secret, Buffer.concat([Buffer.from(`v0:${now}:`), body]))}`,
        },
      };
    }
    case "stripe": {
      const body = Buffer.from(bodyText ?? '{"id":"evt_1","type":"charge.succeeded"}');
      return { body, headers: { "Stripe-Signature": `t=${now},v1=${hex("sha256", secret, Buffer.concat([Buffer.from(`${now}.`), body]))}` } };
    }
    case "standard-webhooks": {
      const body = Buffer.from(bodyText ?? '{"type":"contact.created"}');
      return { body, headers: { ...signStandardWebhook({ secret, id: "msg_1", timestamp: now, body }) } };
    }
    case "linear": {
      const body = Buffer.from(bodyText ?? JSON.stringify({ action: "create", type: "Issue", webhookTimestamp: now * 1000 }));
      return { body, headers: { "Linear-Signature": hex("sha256", secret, body), "Linear-Delivery": "ld-1" } };
    }
    case "pagerduty": {
      const body = Buffer.from(bodyText ?? '{"event":{"id":"01","event_type":"incident.triggered"}}');
      return { body, headers: { "X-PagerDuty-Signature": `v1=${hex("sha256", secret, body)}` } };
    }
    case "sentry": {
      const body = Buffer.from(bodyText ?? '{"action":"created"}');
      return { body, headers: { "Sentry-Hook-Signature": hex("sha256", secret, body), "Request-ID": "r-1" } };
    }
    case "zendesk": {
      const body = Buffer.from(bodyText ?? '{"type":"zen:event-type:ticket.created"}');
      return {
        body,
        headers: {
          "X-Zendesk-Webhook-Signature": b64("sha256", secret, Buffer.concat([Buffer.from(iso), body])),
          "X-Zendesk-Webhook-Signature-Timestamp": iso,
        },
      };
    }
    case "intercom": {
      const body = Buffer.from(bodyText ?? '{"type":"notification_event","id":"notif_1"}');
      return { body, headers: { "X-Hub-Signature": `sha1=${hex("sha1", secret, body)}` } };
    }
    case "twilio": {
      const body = Buffer.from(bodyText ?? "To=%2B18005551212&From=%2B14158675309&Body=hello+there&MessageSid=SM1");
      const url = "https://broker.example/hooks/twilio";
      const params = [...new URLSearchParams(body.toString())].sort(([a], [b]) => (a < b ? -1 : 1));
      const signed = url + params.map(([name, value]) => name + value).join("");
      return { body, url, headers: { "X-Twilio-Signature": b64("sha1", secret, signed) } };
    }
    case "box": {
      const body = Buffer.from(bodyText ?? '{"trigger":"FILE.UPLOADED"}');
      const signature = b64("sha256", secret, Buffer.concat([body, Buffer.from(iso)]));
      return {
        body,
        headers: {
          "box-signature-primary": signature,
          "box-delivery-timestamp": iso,
          "box-signature-version": "1",
          "box-signature-algorithm": "HmacSHA256",
          "box-delivery-id": "bd-1",
        },
      };
    }
    case "microsoft-graph": {
      const body = Buffer.from(bodyText ?? JSON.stringify({ value: [{ subscriptionId: "s1", clientState: secret, changeType: "created" }] }));
      return { body, headers: {} };
    }
    case "asana": {
      const body = Buffer.from(bodyText ?? '{"events":[]}');
      return { body, headers: { "X-Hook-Signature": hex("sha256", secret, body) } };
    }
    case "jira": {
      const body = Buffer.from(bodyText ?? '{"webhookEvent":"jira:issue_created"}');
      return { body, headers: { "X-Hub-Signature": `sha256=${hex("sha256", secret, body)}`, "X-Atlassian-Webhook-Identifier": "j-1" } };
    }
  }
}

export function sha256Hex(data: Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

import type { WebhookDialect } from "@eleven-integrations/schema";

/** What answers a provider's documented handshake instead of an event. */
export type Handshake = { kind: "text"; body: string } | { kind: "header"; name: string; value: string } | { kind: "json"; body: Record<string, string> };

/** Printable ASCII, bounded: what is echoed is never markup-capable bytes nor a header break. */
const TOKEN = /^[\x20-\x7e]{1,1024}$/;

/**
 * The handshakes answered before verification, because they come before there is anything to
 * verify (each only for its dialect):
 * - Microsoft Graph: `POST ?validationToken=…` with no body; echo the decoded token as text/plain, 200.
 *   https://learn.microsoft.com/en-us/graph/change-notifications-delivery-webhooks#notificationurl-validation
 * - Asana: the first `POST` carries `X-Hook-Secret` and no `X-Hook-Signature`; echo the header, 200.
 *   https://developers.asana.com/docs/webhooks-guide#the-webhook-handshake
 */
export function unsignedHandshake(
  dialect: WebhookDialect,
  query: URLSearchParams,
  headers: Record<string, string | string[] | undefined>,
  body: Uint8Array,
): Handshake | undefined {
  if (dialect === "microsoft-graph") {
    const token = query.getAll("validationToken");
    if (token.length === 1 && body.length === 0 && TOKEN.test(token[0] as string)) return { kind: "text", body: token[0] as string };
  }
  if (dialect === "asana") {
    const secret = headers["x-hook-secret"];
    if (typeof secret === "string" && headers["x-hook-signature"] === undefined && TOKEN.test(secret))
      return { kind: "header", name: "X-Hook-Secret", value: secret };
  }
  return undefined;
}

/**
 * Slack's `url_verification` (signed like every Slack request, so answered only once verified):
 * answer the `challenge`. https://api.slack.com/events/url_verification
 */
export function slackChallenge(dialect: WebhookDialect, body: Uint8Array): Handshake | undefined {
  if (dialect !== "slack") return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(body).toString("utf8"));
  } catch {
    return undefined;
  }
  if (typeof payload !== "object" || payload === null) return undefined;
  const { type, challenge } = payload as { type?: unknown; challenge?: unknown };
  if (type !== "url_verification" || typeof challenge !== "string" || !TOKEN.test(challenge)) return undefined;
  return { kind: "json", body: { challenge } };
}

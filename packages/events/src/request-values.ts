import { valueAtDotPath, type RequestPlace } from "@eleven-integrations/schema";
import { readHeader, type WebhookHeaders } from "./header-bag.js";

/**
 * A verified body as the manifest's paths read it: a JSON object, or a form post
 * (`application/x-www-form-urlencoded`, as Twilio and Slack's interactivity send) as an object of
 * its fields. Null for anything else.
 */
export function payloadOf(body: Uint8Array): Record<string, unknown> | null {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    return null;
  }
  const trimmed = text.trimStart();
  if (trimmed.startsWith("{")) {
    try {
      const value: unknown = JSON.parse(text);
      return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  }
  if (!/^[A-Za-z0-9_.%+-]+=/.test(trimmed)) return null;
  const form: Record<string, unknown> = {};
  for (const [name, value] of new URLSearchParams(text)) if (!Object.hasOwn(form, name)) form[name] = value;
  return form;
}

/** The text at a request place (a header, or a scalar at a body path); undefined when absent, duplicated or not a scalar. */
export function textAt(place: RequestPlace, headers: WebhookHeaders, payload: Record<string, unknown>): string | undefined {
  if (place.header !== undefined) {
    const header = readHeader(headers, place.header);
    return header.kind === "one" ? header.value : undefined;
  }
  const value = valueAtDotPath(payload, (place.body as string).split("."));
  return scalarText(value);
}

/** A string, a finite number or a boolean as text; anything else is no value. */
export function scalarText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "boolean") return String(value);
  return undefined;
}

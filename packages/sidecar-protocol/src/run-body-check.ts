import { fileArgValueSchema } from "@eleven-integrations/schema";
import { MAX_EVENT_ID_LENGTH, MAX_OP_ID_LENGTH, OP_ID_PATTERN, runBodySchema, type RunBody } from "./body-schemas.js";
import { parseBody, type BodyResult } from "./parse-body.js";

const RUN_BODY_KEYS = new Set(["grant", "op", "args", "confirmation", "page", "approval", "event_id"]);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

const optionalText = (value: unknown): boolean => value === undefined || (typeof value === "string" && value.length > 0);

/**
 * Whether `body` is a run body `runBodySchema` takes as it is, checked by hand without
 * copying it: the same verdict for every JSON body (a test runs both). On the
 * sidecar's busiest route this is a few hundred nanoseconds instead of zod's walk.
 */
export function isWellFormedRunBody(body: unknown): body is RunBody {
  if (!isPlainObject(body)) return false;
  for (const key of Object.keys(body)) if (!RUN_BODY_KEYS.has(key)) return false;
  const { grant, op, args, confirmation, page, approval, event_id: eventId } = body;
  if (typeof grant !== "string" || grant.length === 0) return false;
  if (typeof op !== "string" || op.length > MAX_OP_ID_LENGTH || !OP_ID_PATTERN.test(op)) return false;
  if (!optionalText(confirmation) || !optionalText(page) || !optionalText(approval) || !optionalText(eventId)) return false;
  if (typeof eventId === "string" && eventId.length > MAX_EVENT_ID_LENGTH) return false;
  if (args === undefined) return true;
  if (!isPlainObject(args)) return false;
  for (const key of Object.keys(args)) if (!isArgValue(args[key])) return false;
  return true;
}

/** A string, an array of strings, or a file value (the rare case, left to its schema). */
function isArgValue(value: unknown): boolean {
  if (typeof value === "string") return true;
  if (Array.isArray(value)) {
    for (const item of value) if (typeof item !== "string") return false;
    return true;
  }
  return fileArgValueSchema.safeParse(value).success;
}

/**
 * `parseBody(runBodySchema, body)`: a well-formed body is taken as sent (the parsed
 * JSON, not a copy); zod runs only for one it refuses, to name every issue.
 */
export function parseRunBody(body: unknown): BodyResult<RunBody> {
  if (isWellFormedRunBody(body)) return { ok: true, value: body };
  return parseBody(runBodySchema, body);
}

import { canonicalJson } from "@eleven-integrations/schema";
import { z } from "zod";
import { isBase64UrlOf } from "./base64url.js";
import { GrantError } from "./grant-error.js";
import { INTEGRATION_ID, MAX_ACCOUNT_TEXT, OP_ID } from "./grant-payload.js";

/** Most event types one subscription names. */
export const MAX_SUBSCRIPTION_EVENTS = 64;
/** Most filter args one subscription carries. */
export const MAX_SUBSCRIPTION_ARGS = 16;
/** Longest filter value, in UTF-16 code units. */
export const MAX_SUBSCRIPTION_ARG_TEXT = 1024;

const ARG_NAME = /^[a-z][a-z0-9_]{0,63}$/;
const HEX_HASH = /^[0-9a-f]{64}$/;
const LONE_SURROGATE = /\p{Cs}/u;

const base64UrlOf = (bytes: number, what: string) =>
  z.string().refine((value) => isBase64UrlOf(value, bytes), `${what} must be ${bytes} bytes of unpadded base64url`);
const unixSeconds = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const text = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((value) => !LONE_SURROGATE.test(value), "holds a lone surrogate");

/** A filter arg's value: what the manifest's event arg is matched against (`repo: "octo/hello"`). */
export const subscriptionArgValueSchema = z.union([text(MAX_SUBSCRIPTION_ARG_TEXT), z.number().refine(Number.isFinite, "must be finite"), z.boolean()]);

/** The signed payload of an event subscription (`es1.`), its fields as on the wire. */
export const subscriptionPayloadSchema = z
  .strictObject({
    v: z.literal(1),
    typ: z.literal("subscription"),
    /** Random id of this subscription (16 bytes, unpadded base64url): the stream, the hook URL and revocations name it. */
    sid: base64UrlOf(16, "sid"),
    /** The member's Ed25519 public key that signed it. */
    iss: base64UrlOf(32, "iss"),
    /** The bot's X25519 public key it was sealed to. */
    aud: base64UrlOf(32, "aud"),
    integration: z.string().regex(INTEGRATION_ID),
    /** Lowercase hex hash of the manifest whose events the member was shown. */
    manifest_hash: z.string().regex(HEX_HASH),
    /** The declared event ids this subscription receives (at least one, none twice). */
    events: z
      .array(z.string().regex(OP_ID))
      .min(1)
      .max(MAX_SUBSCRIPTION_EVENTS)
      .refine((events) => new Set(events).size === events.length, "names an event twice"),
    /** Filter args, matched against the events' declared payload paths. */
    args: z
      .record(z.string().regex(ARG_NAME), subscriptionArgValueSchema)
      .refine((args) => Object.keys(args).length <= MAX_SUBSCRIPTION_ARGS, `has more than ${MAX_SUBSCRIPTION_ARGS} args`)
      .optional(),
    /** The provider account whose events it receives (as a grant's `account`). */
    account: z.strictObject({ id: text(MAX_ACCOUNT_TEXT), name: text(MAX_ACCOUNT_TEXT) }).optional(),
    iat: unixSeconds,
    exp: unixSeconds,
  })
  .refine((subscription) => subscription.exp > subscription.iat, "`exp` must be after `iat`");
export type Subscription = z.infer<typeof subscriptionPayloadSchema>;
export type SubscriptionArgs = NonNullable<Subscription["args"]>;

/** Checks a subscription payload, the same way when issuing and when opening. Throws `GrantError` `malformed` naming where, never the value. */
export function checkSubscriptionPayload(object: unknown): Subscription {
  const parsed = subscriptionPayloadSchema.safeParse(object);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path.map(String).join(".") ?? "";
  throw new GrantError("malformed", `subscription payload: ${path === "" ? (issue?.message ?? "is not valid") : `\`${path}\` is not valid`}`);
}

/** The RFC 8785 canonical JSON of a checked subscription: the bytes the member signs. */
export function subscriptionJson(subscription: Subscription): string {
  return canonicalJson(subscription);
}

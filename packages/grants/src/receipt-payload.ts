import { z } from "zod";
import { isBase64UrlOf } from "./base64url.js";
import { INTEGRATION_ID, MAX_ACCOUNT_TEXT, OP_ID } from "./grant-payload.js";

/** Prefix of every receipt token. */
export const RECEIPT_PREFIX = "ew1.";
/** Longest receipt token `verifyReceipt` reads, in characters; a receipt is about 1 000. */
export const MAX_RECEIPT_LENGTH = 4096;

const HEX_HASH = /^[0-9a-f]{64}$/;
// The sidecar's audit ids are UUIDs; anything printable and short is accepted, nothing that needs escaping.
const AUDIT_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const base64UrlOf = (bytes: number, what: string) =>
  z.string().refine((value) => isBase64UrlOf(value, bytes), `${what} must be ${bytes} bytes of unpadded base64url`);
const unixSeconds = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/**
 * The signed payload of a receipt: what one write ran, under which grant,
 * confirmation and registry, and how it ended. Exactly these keys.
 */
export const receiptPayloadSchema = z.strictObject({
  v: z.literal(1),
  typ: z.literal("receipt"),
  /** The grant the write ran under. */
  gid: base64UrlOf(16, "gid"),
  /** The member whose grant and tap the write ran under (the grant's `iss`, an Ed25519 key). */
  iss: base64UrlOf(32, "iss"),
  /** The bot the grant was sealed to (the grant's `aud`, an X25519 key). */
  aud: base64UrlOf(32, "aud"),
  /** The account the grant's credential acts as, when the grant names one. */
  account: z
    .strictObject({
      id: z
        .string()
        .min(1)
        .max(MAX_ACCOUNT_TEXT * 2),
      name: z
        .string()
        .min(1)
        .max(MAX_ACCOUNT_TEXT * 2),
    })
    .optional(),
  /** The standing approval the write ran under instead of a tap (`ea1.`'s `aid`); absent for a tapped write. */
  aid: base64UrlOf(16, "aid").optional(),
  /** The receipt public key that signed it: the bot's (`receipt_key` of `GET /v1/identity` on any of its sidecars). */
  kid: base64UrlOf(32, "kid"),
  integration: z.string().regex(INTEGRATION_ID),
  op: z.string().regex(OP_ID),
  /** Lowercase hex hash of the manifest that ran. */
  manifest_hash: z.string().regex(HEX_HASH),
  /** The confirmation's `args_digest` (BLAKE2b-256 of the RFC 8785 args). */
  args_digest: base64UrlOf(32, "args_digest"),
  /** The confirmation's `line_digest` (BLAKE2b-256 of the line the member tapped). */
  line_digest: base64UrlOf(32, "line_digest"),
  /** The confirmation's nonce: one receipt per tap. */
  nonce: base64UrlOf(16, "nonce"),
  /** The envelope's status. */
  status: z.enum(["ok", "error"]),
  /** The provider's HTTP status, or null when no answer came (a timeout, `outcome_unknown`). */
  http_status: z.number().int().min(100).max(599).nullable(),
  /** `resultDigest(envelope.data)`: BLAKE2b-256 of its RFC 8785 form (of `null` when there is no data). */
  result_digest: base64UrlOf(32, "result_digest"),
  /** When the write ended, Unix seconds. */
  at: unixSeconds,
  /** The audit line's id, linking the receipt to the sidecar's journal. */
  audit_id: z.string().regex(AUDIT_ID),
  /** Hash of the registry release that ran (64 lowercase hex). */
  registry_hash: z.string().regex(HEX_HASH),
});

/** What a receipt says: its signed payload, fields as on the wire. */
export type ReceiptPayload = z.infer<typeof receiptPayloadSchema>;

/** What `signReceipt` takes: the payload without `v`, `typ` and `kid` (the signing key's public half), `at` defaulting to the clock. */
export type ReceiptInput = Omit<ReceiptPayload, "v" | "typ" | "at" | "kid"> & { at?: number };

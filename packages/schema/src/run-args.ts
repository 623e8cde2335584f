import { z } from "zod";
import { MAX_FILE_BASE64_LENGTH } from "./file-value.js";

// The values a run's args take (issue 38): typed once here, imported by every package that carries args.

/** Standard base64 characters, then at most two `=`: with a length that is a multiple of 4, padded base64 (one pass, no backtracking on 11 MB). */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;
/** A media type as RFC 9110 writes one (`type/subtype`, optional parameters), without control characters. */
const CONTENT_TYPE = /^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+(?:\s*;\s*[A-Za-z0-9!#$&^_.+-]+=(?:[A-Za-z0-9!#$&^_.+-]+|"[^"\\\x00-\x1f\x7f]*"))*$/;
/** No control, line or format characters in a file name, no path separators. */
const FILE_NAME_REFUSED = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}/\\]/u;

/** A file the bot sends inline: its name, media type and bytes in standard base64 (RFC 4648 §4, padded). */
export const inlineFileArgSchema = z.strictObject({
  name: z
    .string()
    .min(1)
    .max(255)
    .refine((name) => !FILE_NAME_REFUSED.test(name) && name !== "." && name !== "..", "must be a file name (no control characters, no / or \\)"),
  content_type: z.string().max(255).regex(CONTENT_TYPE, "must be a media type such as text/plain or image/png"),
  base64: z
    .string()
    .max(MAX_FILE_BASE64_LENGTH, "the file must be at most 8 MiB decoded")
    .refine((text) => text.length % 4 === 0 && BASE64.test(text), "must be standard base64 (RFC 4648, padded)"),
});

/** A file already in the sidecar's upload folder, named by the SHA-256 of its bytes (lower-case hex). */
export const storedFileArgSchema = z.strictObject({
  sha256: z.string().regex(SHA256_HEX, "must be 64 lower-case hex digits"),
});

/** The value of a `type: "file"` arg. */
export const fileArgValueSchema = z.union([inlineFileArgSchema, storedFileArgSchema]);
export type FileArgValue = z.infer<typeof fileArgValueSchema>;
export type InlineFileArg = z.infer<typeof inlineFileArgSchema>;

/** One arg's value: a string, a list arg's array of strings, or a file arg's file. */
export const argValueSchema = z.union([z.string(), z.array(z.string()), fileArgValueSchema]);
export type ArgValue = z.infer<typeof argValueSchema>;

/** A run's args: an object of arg values (checked against the op's declarations by the executor). */
export const runArgsSchema = z.record(z.string(), argValueSchema);
export type RunArgs = z.infer<typeof runArgsSchema>;

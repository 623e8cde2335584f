import { z } from "zod";
import { problemCheck } from "./rule-checks.js";

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The most bytes a file arg carries, decoded. */
export const MAX_FILE_ARG_BYTES = 8 * 1024 * 1024;
const MAX_BASE64_LENGTH = Math.ceil(MAX_FILE_ARG_BYTES / 3) * 4;
/** A media type as `type/subtype`, lowercase, without parameters. */
export const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}$/;

/**
 * A file arg's value as the bot passes it: the file itself (`name`, `content_type`, standard
 * base64 of at most 8 MiB), or the SHA-256 of a file in the sidecar's file folder (one it
 * downloaded or was given earlier). A minimal local type: the args work defines the arg type
 * `file` around the same shape.
 */
export const fileArgValueSchema = z.union([
  z.strictObject({
    name: z
      .string()
      .min(1)
      .max(255)
      .regex(/^[^\u0000-\u001f\u007f/\\]+$/, "must be a file name: no controls, no / or \\"),
    content_type: z.string().regex(MEDIA_TYPE, "must be a media type such as application/pdf"),
    base64: z
      .string()
      .max(MAX_BASE64_LENGTH, `must decode to at most ${MAX_FILE_ARG_BYTES} bytes`)
      // A character class and a length rule, not a repeated group: a regex of groups overflows the stack on megabytes.
      .check(problemCheck((text: string) => (text.length % 4 === 0 && BASE64.test(text) ? undefined : "must be standard base64"))),
  }),
  z.strictObject({ sha256: z.string().regex(/^[0-9a-f]{64}$/, "must be 64 lowercase hex digits") }),
]);

export type FileArgValue = z.infer<typeof fileArgValueSchema>;

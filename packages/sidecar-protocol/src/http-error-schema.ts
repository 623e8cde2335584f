import { z } from "zod";

/** Codes of the answers that are not envelopes: the call itself was refused before (or outside) its route. */
export const httpErrorCodeSchema = z.enum([
  "forbidden_host",
  "forbidden_origin",
  "unauthorized",
  "unsupported_media_type",
  "body_too_large",
  "invalid_json",
  "invalid_body",
  "not_found",
  "method_not_allowed",
  "shutting_down",
  "audit_unavailable",
  "bad_request",
  "internal_error",
]);

/** One problem with a request body: a dot path (`args.sort`, `""` for the body itself) and what is wrong. */
export const bodyIssueSchema = z.strictObject({ path: z.string(), message: z.string() });

/** The body of every answer that is not an envelope (401, 403, 400, 404, 413, 415, 500, 503). */
export const httpErrorBodySchema = z.strictObject({
  error: z.strictObject({
    code: httpErrorCodeSchema,
    message: z.string(),
    issues: z.array(bodyIssueSchema).optional(),
  }),
});

export type HttpErrorCode = z.infer<typeof httpErrorCodeSchema>;
export type BodyIssue = z.infer<typeof bodyIssueSchema>;
export type HttpErrorBody = z.infer<typeof httpErrorBodySchema>;

export function httpErrorBody(code: HttpErrorCode, message: string, issues?: BodyIssue[]): HttpErrorBody {
  return issues === undefined ? { error: { code, message } } : { error: { code, message, issues } };
}

import { z } from "zod";
import { accountSchema, errorEnvelopeSchema } from "./envelope-schemas.js";

/** `POST /v1/whoami`: the account the grant's credential acts as, from the integration's identity op run now. */
export const whoamiAccountSchema = z.strictObject({
  status: z.literal("ok"),
  integration: z.string(),
  account: accountSchema,
});

/** The account, or the identity op's (or the grant's) error envelope. */
export const whoamiAnswerSchema = z.discriminatedUnion("status", [whoamiAccountSchema, errorEnvelopeSchema]);

export type WhoamiAccount = z.infer<typeof whoamiAccountSchema>;
export type WhoamiAnswer = z.infer<typeof whoamiAnswerSchema>;

import { argSchema } from "@eleven-integrations/schema";
import { z } from "zod";
import { accountSchema, errorEnvelopeSchema } from "./envelope-schemas.js";

/** One op of a palette: the manifest's args as written, and for a write its confirm template. */
export const paletteOperationSchema = z.strictObject({
  id: z.string(),
  label: z.string(),
  access: z.enum(["read", "write"]),
  args: z.record(z.string(), argSchema).describe("The op's args exactly as its manifest declares them."),
  confirm: z.string().optional().describe("A write's confirm template; the sidecar renders it with the args into the chip's line."),
  destructive: z.literal(true).optional().describe("Present when the manifest marks the op destructive."),
  page: z
    .strictObject({ arg: z.string().optional() })
    .optional()
    .describe(
      "Present when the op pages: `arg` carries the cursor (absent when the op takes none: its pages continue through another op or a next path); a run passes `page` (an answer's `next_page`) instead.",
    ),
});

/** `POST /v1/ops`: the palette a grant enables (a read grant lists reads only; an allow-list is respected). */
export const paletteSchema = z.strictObject({
  status: z.literal("ok"),
  integration: z.string(),
  access: z.enum(["read", "write"]),
  account: accountSchema.optional().describe("The account the grant acts as, when the member's client named it."),
  ops: z.array(paletteOperationSchema),
});

/** A palette refused: the grant did not open, expired, was revoked or names a changed manifest. */
export const paletteRefusalSchema = errorEnvelopeSchema.pick({ status: true, integration: true, error: true });

/** Every answer `POST /v1/ops` gives a well-formed, authorised call (always HTTP 200). */
export const opsAnswerSchema = z.discriminatedUnion("status", [paletteSchema, paletteRefusalSchema]);

export type PaletteArg = z.infer<typeof argSchema>;
export type PaletteOperation = z.infer<typeof paletteOperationSchema>;
export type Palette = z.infer<typeof paletteSchema>;
export type PaletteRefusal = z.infer<typeof paletteRefusalSchema>;
export type OpsAnswer = z.infer<typeof opsAnswerSchema>;

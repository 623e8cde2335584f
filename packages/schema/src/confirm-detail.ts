import { z } from "zod";

/**
 * Why an arg is listed beside a confirm line: not in the line (an optional arg),
 * cut in the line, holding hidden characters, mixing scripts, letters that
 * imitate Latin/ASCII ones (UTS #39 confusables), or characters that could pass
 * for the template's own quotes or brackets (shown as U+FFFD in the line).
 */
export const CONFIRM_DETAIL_FLAGS = ["not_in_line", "shortened", "hidden_characters", "mixed_script", "look_alike", "template_look_alike"] as const;

export const confirmDetailFlagSchema = z.enum(CONFIRM_DETAIL_FLAGS);
export type ConfirmDetailFlag = z.infer<typeof confirmDetailFlagSchema>;

/** One arg the member should read beside the chip's line: its whole value, shown the way the line shows values. */
export const confirmDetailSchema = z.strictObject({
  name: z.string(),
  value: z.string().describe("The whole value, never cut; hidden characters shown as U+FFFD, right-to-left text isolated."),
  flags: z.array(confirmDetailFlagSchema),
  scripts: z.array(z.string()).optional().describe("With mixed_script or look_alike: the scripts of its letters."),
  hidden: z.array(z.string()).optional().describe("With hidden_characters: the code points shown as U+FFFD, as U+XXXX."),
  skeleton: z.string().optional().describe("With look_alike: the value's UTS #39 confusable skeleton."),
  reads_as: z.string().optional().describe("With look_alike: the value with each look-alike character replaced by the ASCII it imitates."),
});
export type ConfirmDetail = z.infer<typeof confirmDetailSchema>;

/** A piece of a rendered confirm line: the template's own text, or one arg's value as shown. */
export const confirmLinePartSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("template"), text: z.string() }),
  z.strictObject({ kind: z.literal("value"), text: z.string(), arg: z.string() }),
]);
export type ConfirmLinePart = z.infer<typeof confirmLinePartSchema>;

/** A rendered confirm line and its parts: `text` is the parts' texts joined, the exact line a member signs. */
export const confirmLineSchema = z.strictObject({ text: z.string(), parts: z.array(confirmLinePartSchema) });
export type ConfirmLine = z.infer<typeof confirmLineSchema>;

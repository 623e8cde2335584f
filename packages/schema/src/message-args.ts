// Zod-free: the executor and the chip share these names.

/** The body leaf an `rfc2822` op's built message fills, as base64url: exactly `"{message}"`. */
export const MESSAGE_PLACEHOLDER = "{message}";
/** The args an `rfc2822` message is built from, and the type each must declare. */
export const MESSAGE_ARGS = {
  to: "string[]",
  cc: "string[]",
  bcc: "string[]",
  subject: "string",
  text: "string",
  in_reply_to: "string",
  references: "string",
} as const;
export type MessageArgName = keyof typeof MESSAGE_ARGS;

export function isMessageArg(name: string): name is MessageArgName {
  return Object.hasOwn(MESSAGE_ARGS, name);
}

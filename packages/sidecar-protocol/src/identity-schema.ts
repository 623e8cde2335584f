import { z } from "zod";

/** The registry the sidecar runs now. */
export const registryInfoSchema = z.strictObject({
  hash: z.string(),
  sequence: z.number().int().min(0).describe("The release's sequence; 0 for the embedded registry, which is no release."),
  source: z.enum(["embedded", "synced"]),
  synced_at: z.string().nullable().describe("When the running release was accepted from the broker (ISO 8601), or null for the embedded registry."),
});

/** `GET /v1/identity`: the bot's box key members seal grants to, and the registry it runs. */
export const identityAnswerSchema = z.strictObject({
  public_key: z.string().describe("The bot's X25519 box public key (unpadded base64url): members seal grants to it."),
  receipt_key: z.string().optional().describe("The sidecar's Ed25519 receipt public key (unpadded base64url): verifies the receipts of its writes."),
  registry: registryInfoSchema,
});

export type RegistryInfo = z.infer<typeof registryInfoSchema>;
export type IdentityAnswer = z.infer<typeof identityAnswerSchema>;

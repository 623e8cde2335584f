import { z } from "zod";

const secret = z.string().min(1).max(4096);

/**
 * `webhookSecrets: { "<integration>": "<secret>" | ["<new>", "<old>"] }`: an app's signing secret per
 * integration (a list while rotating; Box's is `[primary, secondary]`). Read from the file named by
 * `BROKER_WEBHOOK_SECRETS_FILE` like client secrets, never from the environment itself.
 */
export const webhookSecretsSchema = z.record(
  z.string().regex(/^[a-z][a-z0-9-]{0,39}$/, "must be an integration id"),
  z.union([secret, z.array(secret).min(1).max(4)]),
);
export type WebhookSecrets = z.infer<typeof webhookSecretsSchema>;

/** Every secret value, for the logger's redaction list. */
export function webhookSecretValues(secrets: WebhookSecrets | undefined): string[] {
  return Object.values(secrets ?? {}).flatMap((value) => (Array.isArray(value) ? value : [value]));
}

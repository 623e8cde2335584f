import { z } from "zod";

/** What the configuration table of docs/operating.md says about one variable. */
export interface VariableMeta {
  description: string;
  /** The default, as text, when the variable is unset. */
  default?: string;
  /** True when the value is a secret (or names a file of secrets). */
  secret?: boolean;
}

const variable = (schema: z.ZodType<string | undefined>, meta: VariableMeta) => schema.meta({ ...meta });

/**
 * Every environment variable the `eleven-sidecar` command reads
 * (`optionsFromEnvironment`), with what it means. The table in docs/operating.md is
 * generated from this schema, and a test fails when the sidecar's source reads a
 * variable this schema does not declare.
 */
export const sidecarEnvironmentSchema = z.object({
  SIDECAR_HOME: variable(z.string().optional(), {
    description: "The folder holding the bot key, caller token, trusted members, audit log and replay journal (created 0700).",
    default: "~/.eleven-sidecar",
  }),
  SIDECAR_SOCKET: variable(z.string().min(1).optional(), {
    description:
      "The Unix socket to listen on (mode 0600; only the sidecar's user can connect, no other process can squat it). Not with PORT.",
    default: "$SIDECAR_HOME/sidecar.sock",
  }),
  PORT: variable(z.string().regex(/^[0-9]{1,5}$/).optional(), {
    description:
      "Listen on loopback TCP, 127.0.0.1:PORT (0 picks a free one), instead of the Unix socket. Another local process could take the port first, so use it only when the bot cannot use a socket. Not with SIDECAR_SOCKET.",
    default: "unset: the Unix socket",
  }),
  LOG_LEVEL: variable(z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional(), {
    description: "pino's level for the JSON log on stdout.",
    default: "info",
  }),
  REDIS_URL: variable(z.string().regex(/^rediss?:\/\/\S+$/).optional(), {
    description:
      "Redis for what every sidecar of this bot must share: the confirmation replay set, rate limits and revocations (keys namespaced per bot). Unset: kept in this process and its journals, for one sidecar per bot.",
    default: "none",
    secret: true,
  }),
  RATE_LIMIT_GRANT: variable(z.string().regex(/^[1-9][0-9]{0,6}\/[1-9][0-9]{0,5}$/).optional(), {
    description: "Runs allowed per grant, as <runs>/<seconds>; a run over it is rate_limited with retry_after_s, nothing sent.",
    default: "60/60",
  }),
  RATE_LIMIT_INTEGRATION: variable(z.string().regex(/^[1-9][0-9]{0,6}\/[1-9][0-9]{0,5}$/).optional(), {
    description: "Runs allowed per integration for this bot, as <runs>/<seconds>.",
    default: "300/60",
  }),
  SIDECAR_REGISTRY_URL: variable(z.string().regex(/^https?:\/\/\S+$/).optional(), {
    description:
      "The broker's GET /registry.signed to follow: the sidecar fetches it at start and every SIDECAR_REGISTRY_SYNC_MS, and runs each newer release a trusted key signed. Unset: the embedded registry.",
    default: "none",
  }),
  SIDECAR_REGISTRY_KEYS: variable(z.string().optional(), {
    description: "The release public keys trusted to sign registry releases (comma-separated, Ed25519, unpadded base64url); required with SIDECAR_REGISTRY_URL.",
    default: "none",
  }),
  SIDECAR_REGISTRY_SYNC_MS: variable(z.string().regex(/^[0-9]{1,9}$/).optional(), {
    description: "Milliseconds between two fetches of the signed release (at least 100).",
    default: "60000",
  }),
});

export type SidecarEnvironment = z.infer<typeof sidecarEnvironmentSchema>;

import { z } from "zod";

/** What the configuration table of docs/operating.md says about one variable. */
export interface VariableMeta {
  description: string;
  /** The default, as text, when the variable is unset. */
  default?: string;
  /** The key of the `BROKER_CONFIG_FILE` JSON file that takes the same value, if any. */
  file?: string;
  /** True when the value is a secret (or names a file of secrets). */
  secret?: boolean;
}

const variable = (schema: z.ZodType<string | undefined>, meta: VariableMeta) => schema.meta({ ...meta });
const text = () => z.string().optional();

/**
 * Every environment variable the `eleven-broker` command reads (`loadServerConfig`),
 * with what it means. The table in docs/operating.md is generated from this schema,
 * and a test fails when the broker's source reads a variable this schema does not
 * declare, so the table cannot fall behind the code.
 */
export const brokerEnvironmentSchema = z.object({
  BROKER_CONFIG_FILE: variable(text(), {
    description: "A JSON file holding the whole configuration (the keys of the next table). When set, the BROKER_* settings variables below are ignored with a warning.",
    secret: true,
  }),
  BROKER_PUBLIC_URL: variable(text(), { description: "The broker's https origin; the OAuth redirect URI is this plus /connect/callback.", file: "publicUrl" }),
  BROKER_STATE_KEY: variable(text(), {
    description: "32 bytes, unpadded base64url: seals the OAuth state. The same on every instance behind one load balancer.",
    file: "stateKey",
    secret: true,
  }),
  BROKER_STATE_KEYS_OLD: variable(text(), {
    description: "Older state keys that only open (comma-separated in the variable): keep them ten minutes after a rotation.",
    file: "oldStateKeys",
    secret: true,
  }),
  BROKER_ALLOWED_RETURN_TO: variable(text(), {
    description: "The exact return_to values a connect may end at (comma-separated in the variable): https, http on loopback, or a reverse-domain app scheme.",
    default: "none (every connect refused)",
    file: "allowedReturnTo",
  }),
  BROKER_OAUTH_APPS_FILE: variable(text(), {
    description: 'The OAuth apps, { "<integration id>": { "clientId", "clientSecret" } }; the variable names a JSON file holding them (mode 0600), so client secrets stay out of the environment.',
    file: "oauthApps",
    secret: true,
  }),
  BROKER_REGISTRY_DIR: variable(text(), {
    description: "A folder of manifests to serve instead of the registry embedded in the package.",
    default: "the embedded registry",
    file: "registryDir",
  }),
  BROKER_REGISTRY_RELEASE: variable(text(), {
    description:
      "A signed registry release file (integrations registry sign) to serve byte for byte at GET /registry.signed; GET /registry and the page then serve its manifests. Exclusive with BROKER_REGISTRY_DIR.",
    default: "none",
    file: "registryRelease",
  }),
  BROKER_RELEASE_KEYS: variable(text(), {
    description: "Release public keys (comma-separated in the variable): when set, the broker refuses to start with a release none of them signed.",
    default: "none (the signature is checked by the sidecars)",
    file: "releaseKeys",
  }),
  HOST: variable(text(), { description: "The address to listen on.", default: "127.0.0.1", file: "host" }),
  PORT: variable(z.string().regex(/^\d{1,5}$/).optional(), { description: "The port to listen on (0 picks a free one).", default: "8080", file: "port" }),
  BROKER_LOG_LEVEL: variable(z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional(), {
    description: "pino's level for the JSON log on stdout.",
    default: "info",
    file: "logLevel",
  }),
  BROKER_REDIS_URL: variable(text(), {
    description:
      "Redis shared by every broker instance: concurrent refreshes of one refresh token, on any instance, make one provider call and every caller gets its result. Unset: single-flight within one instance.",
    default: "none",
    secret: true,
  }),
  NODE_ENV: variable(text(), {
    description: "production refuses to start without a configuration; anything else falls back to the development configuration.",
  }),
});

export type BrokerEnvironment = z.infer<typeof brokerEnvironmentSchema>;

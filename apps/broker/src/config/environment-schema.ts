import { z } from "zod";
import { KEY_PATTERN } from "@eleven-integrations/schema";

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

const variable = <T extends z.ZodType>(schema: T, meta: VariableMeta): T => schema.meta({ ...meta });
const text = () => z.string().trim().optional();
/** `a, b,` → `["a", "b"]`: a comma-separated variable as its entries. */
const list = () =>
  z
    .string()
    .optional()
    .transform((value) =>
      value
        ?.split(",")
        .map((item) => item.trim())
        .filter((item) => item !== ""),
    );

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
const PORT_MESSAGE = "must be a port number (0 to 65535)";

/**
 * Every environment variable the `eleven-broker` command reads, with what it means,
 * and how it is parsed: `loadServerConfig` reads the environment through this schema
 * alone (`parseEnvironment`), and the table in docs/operating.md is generated from it,
 * so the table and the code cannot disagree. A blank variable is an unset one.
 */
export const brokerEnvironmentSchema = z.object({
  BROKER_CONFIG_FILE: variable(text(), {
    description:
      "A JSON file holding the whole configuration (the keys of the next table). When set, the BROKER_* settings variables below are ignored with a warning.",
    secret: true,
  }),
  BROKER_PUBLIC_URL: variable(text(), { description: "The broker's https origin; the OAuth redirect URI is this plus /connect/callback.", file: "publicUrl" }),
  BROKER_STATE_KEY: variable(text(), {
    description: "32 bytes, unpadded base64url: seals the OAuth state. The same on every instance behind one load balancer.",
    file: "stateKey",
    secret: true,
  }),
  BROKER_STATE_KEYS_OLD: variable(list(), {
    description: "Older state keys that only open (comma-separated in the variable): keep them ten minutes after a rotation.",
    file: "oldStateKeys",
    secret: true,
  }),
  BROKER_ALLOWED_RETURN_TO: variable(list(), {
    description: "The exact return_to values a connect may end at (comma-separated in the variable): https, http on loopback, or a reverse-domain app scheme.",
    default: "none (every connect refused)",
    file: "allowedReturnTo",
  }),
  BROKER_OAUTH_APPS_FILE: variable(text(), {
    description:
      'The OAuth apps, { "<integration id>": { "clientId", "clientSecret" } }; the variable names a JSON file holding them (mode 0600), so client secrets stay out of the environment.',
    file: "oauthApps",
    secret: true,
  }),
  BROKER_WEBHOOK_SECRETS_FILE: variable(text(), {
    description:
      'The apps\' webhook signing secrets, { "<integration id>": "<secret>" | ["<new>", "<old>"] }; the variable names a JSON file holding them (mode 0600), like client secrets. An integration without one refuses every delivery to POST /hooks/<id> (401): there is no "accept unverified" setting.',
    default: "none (every webhook refused)",
    file: "webhookSecrets",
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
  BROKER_RELEASE_KEYS: variable(list().pipe(z.array(z.string().regex(KEY_PATTERN, "must be a 32-byte unpadded base64url Ed25519 public key")).optional()), {
    description: "Release public keys (comma-separated in the variable): when set, the broker refuses to start with a release none of them signed.",
    default: "none (the signature is checked by the sidecars)",
    file: "releaseKeys",
  }),
  HOST: variable(
    text().transform((host) => host ?? "127.0.0.1"),
    { description: "The address to listen on.", default: "127.0.0.1", file: "host" },
  ),
  PORT: variable(
    z
      .string()
      .trim()
      .regex(/^\d{1,5}$/, PORT_MESSAGE)
      .refine((port) => !/^\d{1,5}$/.test(port) || Number(port) <= 65535, PORT_MESSAGE)
      .optional()
      .transform((port) => (port === undefined ? 8080 : Number(port))),
    { description: "The port to listen on (0 picks a free one).", default: "8080", file: "port" },
  ),
  BROKER_METRICS_PORT: variable(
    z
      .string()
      .trim()
      .regex(/^\d{1,5}$/, PORT_MESSAGE)
      .refine((port) => !/^\d{1,5}$/.test(port) || Number(port) <= 65535, PORT_MESSAGE)
      .optional()
      .transform((port) => (port === undefined ? undefined : Number(port))),
    {
      description:
        "Serve Prometheus metrics (GET /metrics) and the probes GET /healthz and GET /readyz on 127.0.0.1:BROKER_METRICS_PORT (0 picks a free one, printed at start), never on the public listener. Unset: no metrics listener.",
      default: "unset: no metrics",
    },
  ),
  BROKER_LOG_LEVEL: variable(z.enum(LOG_LEVELS, `must be one of ${LOG_LEVELS.join(", ")}`).default("info"), {
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
  BROKER_REDIS_SENTINELS: variable(
    text().transform((value) =>
      value === undefined || value === ""
        ? undefined
        : value
            .split(",")
            .map((entry) => entry.trim())
            .filter((entry) => entry !== ""),
    ),
    {
      description:
        'Redis Sentinel instead of BROKER_REDIS_URL: comma-separated "host:port" sentinels, asked for the current primary of BROKER_REDIS_NAME on every (re)connect, so a failover needs no restart.',
      default: "none",
    },
  ),
  BROKER_REDIS_NAME: variable(text(), {
    description: "The primary's name the sentinels monitor; required with BROKER_REDIS_SENTINELS.",
    default: "none",
  }),
  BROKER_TRUST_PROXY: variable(list(), {
    description:
      "The proxies in front of the broker whose X-Forwarded-For names the client (comma-separated addresses or CIDRs, fastify's trustProxy). Unset: no proxy is trusted, and every per-address budget counts the proxy's address.",
    default: "none",
    file: "trustProxy",
  }),
  NODE_ENV: variable(text(), {
    description: "production refuses to start without a configuration; anything else falls back to the development configuration.",
  }),
});

/** The environment as the broker runs with it: lists split, the port a number, defaults filled in. */
export type BrokerEnvironment = z.infer<typeof brokerEnvironmentSchema>;

/** The variables as the schema reads them: a blank value is an unset one. */
export function withoutBlanks(environment: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const set: Record<string, string> = {};
  for (const [name, value] of Object.entries(environment)) if (value !== undefined && value.trim() !== "") set[name] = value;
  return set;
}

/** Parses `environment` through `brokerEnvironmentSchema`: every problem, by variable. */
export function parseEnvironment(environment: Readonly<Record<string, string | undefined>>): z.ZodSafeParseResult<BrokerEnvironment> {
  return brokerEnvironmentSchema.safeParse(withoutBlanks(environment));
}

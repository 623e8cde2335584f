import { z } from "zod";
import type { RateLimit } from "../state/shared-state.js";

/** What the configuration table of docs/operating.md says about one variable. */
export interface VariableMeta {
  description: string;
  /** The default, as text, when the variable is unset. */
  default?: string;
  /** True when the value is a secret (or names a file of secrets). */
  secret?: boolean;
}

const variable = <T extends z.ZodType>(schema: T, meta: VariableMeta): T => schema.meta({ ...meta });

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
const RATE = /^([1-9][0-9]{0,6})\/([1-9][0-9]{0,5})$/;
const RATE_MESSAGE = "must be <runs>/<seconds> such as 60/60";

/** `60/60`: at most 60 runs in 60 seconds. */
const rate = () =>
  z
    .string()
    .regex(RATE, RATE_MESSAGE)
    .optional()
    .transform((value): RateLimit | undefined => {
      const match = value === undefined ? null : RATE.exec(value);
      return match === null ? undefined : { points: Number(match[1]), durationSeconds: Number(match[2]) };
    });

/**
 * Every environment variable the `eleven-sidecar` command reads, with what it means,
 * and how it is parsed: `optionsFromEnvironment` reads the environment through this
 * schema alone (`parseEnvironment`), and the table in docs/operating.md is generated
 * from it, so the table and the code cannot disagree. A blank variable is an unset one.
 */
export const sidecarEnvironmentSchema = z.object({
  SIDECAR_HOME: variable(z.string().optional(), {
    description: "The folder holding the bot key, caller token, trusted members, audit log and replay journal (created 0700).",
    default: "~/.eleven-sidecar",
  }),
  SIDECAR_SOCKET: variable(z.string().min(1).optional(), {
    description: "The Unix socket to listen on (mode 0600; only the sidecar's user can connect, no other process can squat it). Not with PORT.",
    default: "$SIDECAR_HOME/sidecar.sock",
  }),
  PORT: variable(
    z
      .string()
      .regex(/^[0-9]{1,5}$/, "must be a port number")
      .optional()
      .transform((port) => (port === undefined ? undefined : Number(port))),
    {
      description:
        "Listen on loopback TCP, 127.0.0.1:PORT (0 picks a free one), instead of the Unix socket. Another local process could take the port first, so use it only when the bot cannot use a socket. Not with SIDECAR_SOCKET.",
      default: "unset: the Unix socket",
    },
  ),
  SIDECAR_CALLER_GROUP: variable(
    z
      .string()
      .regex(/^([0-9]{1,10}|[A-Za-z_][A-Za-z0-9_-]{0,31}\$?)$/, "must be a group name or a gid")
      .optional(),
    {
      description:
        "The group (name or gid) whose members may call the sidecar when the bot runs as another user: the socket becomes 0660 and the caller token 0640 for that group; every other file stays 0600. The sidecar's user must be in the group, and the home must let the group through (chmod 0710). Not with PORT.",
      default: "unset: the sidecar's user alone",
    },
  ),
  SIDECAR_METRICS_PORT: variable(
    z
      .string()
      .regex(/^[0-9]{1,5}$/, "must be a port number")
      .optional()
      .transform((port) => (port === undefined ? undefined : Number(port))),
    {
      description:
        "Serve Prometheus metrics (GET /metrics) and the probes GET /healthz and GET /readyz on 127.0.0.1:SIDECAR_METRICS_PORT (0 picks a free one, printed at start); no caller token there, and never on the main listener. Unset: no metrics listener.",
      default: "unset: no metrics",
    },
  ),
  LOG_LEVEL: variable(z.enum(LOG_LEVELS, `must be one of ${LOG_LEVELS.join(", ")}`).default("info"), {
    description: "pino's level for the JSON log on stdout.",
    default: "info",
  }),
  REDIS_URL: variable(
    z
      .string()
      .regex(/^rediss?:\/\/\S+$/, "must be a redis:// or rediss:// URL")
      .optional(),
    {
      description:
        "Redis for what every sidecar of this bot must share: the confirmation replay set, rate limits and revocations (keys namespaced per bot). Unset: kept in this process and its journals, for one sidecar per bot.",
      default: "none",
      secret: true,
    },
  ),
  SIDECAR_REDIS_SENTINELS: variable(
    z
      .string()
      .optional()
      .transform((value) =>
        value === undefined || value.trim() === ""
          ? undefined
          : value
              .split(",")
              .map((entry) => entry.trim())
              .filter((entry) => entry !== ""),
      ),
    {
      description:
        'Redis Sentinel instead of REDIS_URL: comma-separated "host:port" sentinels, asked for the current primary of SIDECAR_REDIS_NAME on every (re)connect, so a failover needs no restart. A consumed confirmation or a revocation counts once one replica acknowledged it (WAIT), so a failover cannot lose it.',
      default: "none",
    },
  ),
  SIDECAR_REDIS_NAME: variable(
    z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,64}$/, "must be the monitored primary's name ([A-Za-z0-9._-], at most 64)")
      .optional(),
    {
      description: "The primary's name the sentinels monitor; required with SIDECAR_REDIS_SENTINELS.",
      default: "none",
    },
  ),
  RATE_LIMIT_GRANT: variable(rate(), {
    description: "Runs allowed per grant, as <runs>/<seconds>; a run over it is rate_limited with retry_after_s, nothing sent.",
    default: "60/60",
  }),
  RATE_LIMIT_INTEGRATION: variable(rate(), {
    description: "Runs allowed per integration for this bot, as <runs>/<seconds>.",
    default: "300/60",
  }),
  SIDECAR_REGISTRY_URL: variable(
    z
      .string()
      .regex(/^https?:\/\/\S+$/, "must be an http:// or https:// URL")
      .optional(),
    {
      description:
        "The broker's GET /registry.signed to follow: the sidecar fetches it at start and every SIDECAR_REGISTRY_SYNC_MS, and runs each newer release a trusted key signed. Unset: the embedded registry.",
      default: "none",
    },
  ),
  SIDECAR_REGISTRY_KEYS: variable(
    z
      .string()
      .optional()
      .transform((keys) =>
        keys
          ?.split(",")
          .map((key) => key.trim())
          .filter((key) => key !== ""),
      ),
    {
      description:
        "The release public keys trusted to sign registry releases (comma-separated, Ed25519, unpadded base64url); required with SIDECAR_REGISTRY_URL.",
      default: "none",
    },
  ),
  SIDECAR_REGISTRY_SYNC_MS: variable(
    z
      .string()
      .regex(/^[0-9]{1,9}$/, "must be a number of milliseconds")
      .optional()
      .transform((ms) => (ms === undefined ? undefined : Number(ms))),
    {
      description: "Milliseconds between two fetches of the signed release (at least 100).",
      default: "60000",
    },
  ),
  SIDECAR_REGISTRY_MIN_SEQUENCE: variable(
    z
      .string()
      .regex(/^[0-9]{1,15}$/, "must be a whole number")
      .optional()
      .transform((sequence) => (sequence === undefined ? undefined : Number(sequence))),
    {
      description:
        "The lowest registry release sequence to run: an older release, from the broker or the cache, is refused as a rollback even on a fresh home. The build's own floor (above the signed release the manifests package ships) applies anyway; set this for an unsigned build that ships none.",
      default: "0",
    },
  ),
  SIDECAR_REVOCATION_SYNC_MS: variable(
    z
      .string()
      .regex(/^[0-9]{1,4}$/, "must be a number of milliseconds")
      .optional()
      .transform((ms) => (ms === undefined ? undefined : Number(ms)))
      .refine((ms) => ms === undefined || (ms >= 100 && ms <= 5000), "must be from 100 to 5000 milliseconds"),
    {
      description:
        "Milliseconds between two fetches of the broker's GET /revocations?since= (the origin of SIDECAR_REGISTRY_URL), from 100 to 5000: a revocation posted to the broker stops the grant here within this time. Unused without SIDECAR_REGISTRY_URL.",
      default: "5000",
    },
  ),
  SIDECAR_AUDIT_ROTATE_BYTES: variable(
    z
      .string()
      .regex(/^[1-9][0-9]{3,11}$/, "must be a number of bytes from 1000")
      .optional()
      .transform((bytes) => (bytes === undefined ? undefined : Number(bytes))),
    {
      description:
        "Rotate the audit log when a line would take it past this many bytes: it is renamed audit.log.<UTC time> and a new one started, the hash chain carried over (the new file's first prev is the renamed file's last line). Unset: never rotated.",
      default: "unset: never rotated",
    },
  ),
});

/** The environment as the sidecar runs with it: numbers, rates and lists parsed, defaults filled in. */
export type SidecarEnvironment = z.infer<typeof sidecarEnvironmentSchema>;

/** The variables as the schema reads them: a blank value is an unset one. */
export function withoutBlanks(environment: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const set: Record<string, string> = {};
  for (const [name, value] of Object.entries(environment)) if (value !== undefined && value.trim() !== "") set[name] = value;
  return set;
}

/** Parses `environment` through `sidecarEnvironmentSchema`: every problem, by variable. */
export function parseEnvironment(environment: Readonly<Record<string, string | undefined>>): z.ZodSafeParseResult<SidecarEnvironment> {
  return sidecarEnvironmentSchema.safeParse(withoutBlanks(environment));
}

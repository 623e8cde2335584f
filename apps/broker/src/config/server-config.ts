import { randomBytes } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { z } from "zod";
import { LOG_LEVELS, brokerEnvironmentSchema, parseEnvironment, withoutBlanks, type BrokerEnvironment } from "./environment-schema.js";
import { brokerSettingsSchema, describeIssues, formatPath, toBrokerSettings, type BrokerSettings, type ConfigIssue, type ConfigResult } from "./config.js";
import { KEY_PATTERN } from "@eleven-integrations/schema";

/** What `server.ts` runs with: where to listen, which registry, the broker settings. */
export interface ServerConfig {
  host: string;
  port: number;
  /** A folder of manifests to serve instead of the embedded registry. */
  registryDir?: string;
  /** A signed registry release to serve at `GET /registry.signed` (its manifests then are the registry). */
  registryRelease?: string;
  /** Release public keys the release must be signed by (optional). */
  releaseKeys?: string[];
  logLevel: string;
  settings: BrokerSettings;
  /** True when nothing was configured and a throwaway development configuration is used. */
  development: boolean;
  /** Said once at start-up: development mode, a world-readable secrets file. */
  warnings: string[];
  /** Redis shared by every broker instance (refresh single-flight), from `BROKER_REDIS_URL`. */
  redisUrl?: string;
  /** Redis Sentinel (`BROKER_REDIS_SENTINELS`, comma-separated `host:port`) and the primary's name (`BROKER_REDIS_NAME`). */
  redisSentinels?: string[];
  redisName?: string;
  /** `BROKER_TRUST_PROXY` (or the file's `trustProxy`): the proxies whose `X-Forwarded-For` names the client. */
  trustProxy?: string[];
  /** `BROKER_METRICS_PORT`: serve /metrics, /healthz and /readyz on 127.0.0.1 at this port (0: a free one). */
  metricsPort?: number;
}

export interface LoadServerConfigOptions {
  readFile?: (path: string) => string;
  /** The file's permission bits, to warn when others can read a file of secrets. */
  fileMode?: (path: string) => number | undefined;
}

/** The development configuration's public URL: a name that never resolves, so no real provider is ever sent there. */
export const DEVELOPMENT_PUBLIC_URL = "https://localhost.invalid";

const ENVIRONMENT_NAMES: Record<string, string> = {
  publicUrl: "BROKER_PUBLIC_URL",
  stateKey: "BROKER_STATE_KEY",
  oldStateKeys: "BROKER_STATE_KEYS_OLD",
  allowedReturnTo: "BROKER_ALLOWED_RETURN_TO",
};
const CONFIG_VARIABLES = [
  "BROKER_PUBLIC_URL",
  "BROKER_STATE_KEY",
  "BROKER_STATE_KEYS_OLD",
  "BROKER_ALLOWED_RETURN_TO",
  "BROKER_OAUTH_APPS_FILE",
  "BROKER_WEBHOOK_SECRETS_FILE",
] as const;

/** The `BROKER_CONFIG_FILE` JSON file: the broker settings plus where to listen and what to serve. */
export const brokerFileSchema = brokerSettingsSchema.extend({
  host: z.string().min(1).optional(),
  port: z.number().int().min(0).max(65535).optional(),
  registryDir: z.string().min(1).optional(),
  registryRelease: z.string().min(1).optional(),
  releaseKeys: z.array(z.string().regex(KEY_PATTERN, "must be a 32-byte unpadded base64url Ed25519 public key")).min(1).optional(),
  logLevel: z.enum(LOG_LEVELS).optional(),
  trustProxy: z.array(z.string().min(1)).min(1).optional(),
});

/**
 * Reads the configuration: the environment through `brokerEnvironmentSchema`, then
 * the JSON file named by `BROKER_CONFIG_FILE`, or the `BROKER_*` variables (client
 * secrets then come from `BROKER_OAUTH_APPS_FILE`), or, when neither is given outside
 * production, a development configuration with an ephemeral state key. Every missing
 * or malformed value is reported by name; no value is ever echoed.
 */
export function loadServerConfig(environment: Readonly<Record<string, string | undefined>>, options: LoadServerConfigOptions = {}): ConfigResult<ServerConfig> {
  const readFile = options.readFile ?? ((path: string) => readFileSync(path, "utf8"));
  const fileMode = options.fileMode ?? ((path: string) => safeMode(path));
  const issues: ConfigIssue[] = [];
  const warnings: string[] = [];
  const parsedEnvironment = parseEnvironment(environment);
  // A malformed variable is reported and left at its default, so the settings are still checked: one run names every problem.
  if (!parsedEnvironment.success) for (const issue of parsedEnvironment.error.issues) issues.push(environmentIssue(issue.path, issue.message, undefined));
  const env = parsedEnvironment.success ? parsedEnvironment.data : parseLeniently(environment, parsedEnvironment.error);
  const listen = { host: env.HOST, port: env.PORT };
  const logLevel = env.BROKER_LOG_LEVEL;
  const registryDir = env.BROKER_REGISTRY_DIR;
  const registryRelease = env.BROKER_REGISTRY_RELEASE;
  const releaseKeys = env.BROKER_RELEASE_KEYS;
  const redis = {
    ...(env.BROKER_REDIS_URL === undefined ? {} : { redisUrl: env.BROKER_REDIS_URL }),
    ...(env.BROKER_REDIS_SENTINELS === undefined ? {} : { redisSentinels: env.BROKER_REDIS_SENTINELS }),
    ...(env.BROKER_REDIS_NAME === undefined ? {} : { redisName: env.BROKER_REDIS_NAME }),
  };

  const configFile = env.BROKER_CONFIG_FILE;
  if (configFile !== undefined) {
    const used = CONFIG_VARIABLES.filter((name) => env[name] !== undefined);
    if (used.length > 0) warnings.push(`BROKER_CONFIG_FILE is set, so ${used.join(", ")} ${used.length === 1 ? "is" : "are"} ignored`);
    const json = readJson(configFile, readFile, "BROKER_CONFIG_FILE", issues);
    if (json === undefined) return { ok: false, issues };
    warnIfReadableByOthers(configFile, fileMode, warnings);
    const parsed = brokerFileSchema.safeParse(json);
    if (!parsed.success) {
      for (const issue of describeIssues(parsed.error)) issues.push({ path: `${configFile}: ${formatPath(issue.path)}`, message: issue.message });
      return { ok: false, issues };
    }
    if (issues.length > 0) return { ok: false, issues };
    const {
      host,
      port,
      registryDir: fileRegistryDir,
      registryRelease: fileRelease,
      releaseKeys: fileReleaseKeys,
      logLevel: fileLogLevel,
      trustProxy: fileTrustProxy,
      ...settings
    } = parsed.data;
    const directory = fileRegistryDir === undefined ? registryDir : resolve(dirname(configFile), fileRegistryDir);
    const releaseFile = fileRelease === undefined ? registryRelease : resolve(dirname(configFile), fileRelease);
    if (directory !== undefined && releaseFile !== undefined)
      issues.push({ path: `${configFile}: registryRelease`, message: "and registryDir are exclusive: a release carries its manifests" });
    if (issues.length > 0) return { ok: false, issues };
    const value: ServerConfig = {
      host: host ?? listen.host,
      port: port ?? listen.port,
      logLevel: fileLogLevel ?? logLevel,
      settings: toBrokerSettings(settings),
      development: false,
      warnings,
      ...redis,
      ...(env.BROKER_METRICS_PORT === undefined ? {} : { metricsPort: env.BROKER_METRICS_PORT }),
    };
    if (directory !== undefined) value.registryDir = directory;
    if (releaseFile !== undefined) value.registryRelease = releaseFile;
    const proxies = fileTrustProxy ?? env.BROKER_TRUST_PROXY;
    if (proxies !== undefined && proxies.length > 0) value.trustProxy = proxies;
    const keys = fileReleaseKeys ?? releaseKeys;
    if (keys !== undefined && keys.length > 0) value.releaseKeys = keys;
    return { ok: true, value };
  }

  const configured = CONFIG_VARIABLES.some((name) => env[name] !== undefined);
  let settings: unknown;
  let development = false;
  if (!configured) {
    if (env.NODE_ENV === "production") {
      issues.push({ path: "BROKER_CONFIG_FILE", message: "is required in production (or BROKER_PUBLIC_URL, BROKER_STATE_KEY and BROKER_ALLOWED_RETURN_TO)" });
      return { ok: false, issues };
    }
    development = true;
    settings = { publicUrl: DEVELOPMENT_PUBLIC_URL, stateKey: randomBytes(32).toString("base64url"), allowedReturnTo: [], oauthApps: {} };
    warnings.push(
      `no configuration (BROKER_CONFIG_FILE or BROKER_* variables): running a DEVELOPMENT configuration: ` +
        `publicUrl ${DEVELOPMENT_PUBLIC_URL}, an ephemeral state key generated for this process only, ` +
        `no OAuth apps (every OAuth integration is served as unavailable) and no allowed return_to (every connect is refused). ` +
        `The catalog and GET /registry work as in production.`,
    );
  } else {
    const appsFile = env.BROKER_OAUTH_APPS_FILE;
    let oauthApps: unknown = {};
    if (appsFile !== undefined) {
      oauthApps = readJson(appsFile, readFile, "BROKER_OAUTH_APPS_FILE", issues);
      warnIfReadableByOthers(appsFile, fileMode, warnings);
    }
    const secretsFile = env.BROKER_WEBHOOK_SECRETS_FILE;
    let webhookSecrets: unknown;
    if (secretsFile !== undefined) {
      webhookSecrets = readJson(secretsFile, readFile, "BROKER_WEBHOOK_SECRETS_FILE", issues);
      warnIfReadableByOthers(secretsFile, fileMode, warnings);
    }
    settings = {
      ...(webhookSecrets === undefined ? {} : { webhookSecrets }),
      publicUrl: env.BROKER_PUBLIC_URL,
      stateKey: env.BROKER_STATE_KEY,
      oldStateKeys: env.BROKER_STATE_KEYS_OLD,
      allowedReturnTo: env.BROKER_ALLOWED_RETURN_TO,
      oauthApps,
    };
    const parsed = brokerSettingsSchema.safeParse(settings);
    if (!parsed.success) {
      for (const issue of describeIssues(parsed.error)) issues.push(environmentIssue(issue.path, issue.message, appsFile));
    }
  }
  if (issues.length > 0) return { ok: false, issues };
  const parsed = brokerSettingsSchema.parse(settings);
  const value: ServerConfig = {
    ...listen,
    logLevel,
    settings: toBrokerSettings(parsed),
    development,
    warnings,
    ...redis,
    ...(env.BROKER_METRICS_PORT === undefined ? {} : { metricsPort: env.BROKER_METRICS_PORT }),
  };
  if (registryDir !== undefined && registryRelease !== undefined) {
    return { ok: false, issues: [{ path: "BROKER_REGISTRY_RELEASE", message: "and BROKER_REGISTRY_DIR are exclusive: a release carries its manifests" }] };
  }
  if (registryDir !== undefined) value.registryDir = registryDir;
  if (registryRelease !== undefined) value.registryRelease = registryRelease;
  if (releaseKeys !== undefined && releaseKeys.length > 0) value.releaseKeys = releaseKeys;
  if (env.BROKER_TRUST_PROXY !== undefined && env.BROKER_TRUST_PROXY.length > 0) value.trustProxy = env.BROKER_TRUST_PROXY;
  return { ok: true, value };
}

/** The environment with each malformed variable left unset (so at its default). */
function parseLeniently(environment: Readonly<Record<string, string | undefined>>, error: z.ZodError): BrokerEnvironment {
  const malformed = new Set(error.issues.map((issue) => String(issue.path[0])));
  return brokerEnvironmentSchema.parse(withoutBlanks(Object.fromEntries(Object.entries(environment).filter(([name]) => !malformed.has(name)))));
}

function environmentIssue(path: readonly PropertyKey[], message: string, appsFile: string | undefined): ConfigIssue {
  const [first, ...rest] = path;
  if (first === "oauthApps") return { path: `${appsFile ?? "BROKER_OAUTH_APPS_FILE"}: ${formatPath(rest)}`, message };
  // Never the secret: the integration id it is under, and what is wrong.
  if (first === "webhookSecrets") return { path: `BROKER_WEBHOOK_SECRETS_FILE: ${formatPath(rest)}`, message };
  const name = ENVIRONMENT_NAMES[String(first)] ?? String(first);
  const index = rest[0];
  return { path: typeof index === "number" ? `${name} (entry ${index + 1})` : name, message };
}

function readJson(path: string, readFile: (path: string) => string, variable: string, issues: ConfigIssue[]): unknown {
  let text: string;
  try {
    text = readFile(path);
  } catch (error) {
    issues.push({ path: variable, message: `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? "error"}` });
    return undefined;
  }
  try {
    return JSON.parse(text);
  } catch {
    // The parser's message may quote the file (a secret): only the fact is reported.
    issues.push({ path: variable, message: `${path} is not valid JSON` });
    return undefined;
  }
}

function warnIfReadableByOthers(path: string, fileMode: (path: string) => number | undefined, warnings: string[]): void {
  const mode = fileMode(path);
  if (mode !== undefined && (mode & 0o077) !== 0) warnings.push(`${path} holds secrets and others can read it: chmod 600 ${path}`);
}

function safeMode(path: string): number | undefined {
  try {
    return statSync(path).mode;
  } catch {
    return undefined;
  }
}

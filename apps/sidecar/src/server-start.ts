import { mkdir } from "node:fs/promises";
import { ready } from "@eleven-integrations/grants";
import { loadRegistry, type Registry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";
import type { FastifyInstance } from "fastify";
import type { Dispatcher } from "undici";
import { buildApp } from "./app.js";
import type { ExecutorLimits, SidecarLoggerOption } from "./config.js";
import type { RateLimits } from "./shared-state.js";
import { checkHomeFolder } from "./home-folder.js";
import { loadOrCreateBotKeys, loadOrCreateCallerToken, loadTrustedMembers } from "./key-files.js";
import { SidecarStartError } from "./sidecar-error.js";
import { sidecarFiles, type SidecarFiles } from "./sidecar-files.js";

/** The only address a sidecar listens on. */
export const SIDECAR_HOST = "127.0.0.1";
export const DEFAULT_PORT = 8787;

export interface StartSidecarOptions {
  /** Directory of the sidecar's files, created 0700 when missing; default `~/.eleven-sidecar`. */
  home?: string;
  /** Port on 127.0.0.1; default 8787, 0 for any free port. */
  port?: number;
  /** Default: the shipped manifests (`@eleven-integrations/manifests`). */
  registry?: Registry;
  /** Leave out in production (the executor's hardened dispatcher); tests point it at loopback stand-ins. */
  dispatcher?: Dispatcher;
  limits?: ExecutorLimits;
  /** fastify's logger option; default none. */
  logger?: SidecarLoggerOption;
  /** Redis shared by every sidecar of this bot (replay set, rate limits, revocations); without it, this process and its journals. */
  redisUrl?: string;
  /** Runs allowed per grant and per integration (defaults: 60 and 300 a minute). */
  rateLimits?: RateLimits;
}

export interface RunningSidecar extends SidecarFiles {
  /** `http://127.0.0.1:<port>`. */
  address: string;
  port: number;
  /** The bot's X25519 public key, which members seal grants to. */
  publicKey: string;
  /** The fastify instance, for logging and tests. */
  app: FastifyInstance;
  /** Stops accepting connections, lets requests in flight finish and write their audit lines, then resolves. */
  close(): Promise<void>;
}

function checkPort(port: number): number {
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new SidecarStartError("invalid_setting", `the port must be an integer from 0 to 65535, not ${port}`);
  }
  return port;
}

/**
 * Starts a sidecar on 127.0.0.1: creates its home directory (0700) and any
 * missing key and token files (0600), refuses key files others can read,
 * loads the trusted members, and listens. Throws `SidecarStartError` before
 * listening when a file is unsafe or invalid.
 */
export async function startSidecar(options: StartSidecarOptions = {}): Promise<RunningSidecar> {
  const port = checkPort(options.port ?? DEFAULT_PORT);
  const files = sidecarFiles(options.home);
  await mkdir(files.home, { recursive: true, mode: 0o700 });
  await checkHomeFolder(files.home);
  await ready();
  const { keys } = await loadOrCreateBotKeys(files.botKeyFile);
  const { token } = await loadOrCreateCallerToken(files.callerTokenFile);
  const trustedMembers = await loadTrustedMembers(files.trustedMembersFile);

  const app = buildApp({
    registry: options.registry ?? loadRegistry(manifestFiles),
    botKeys: keys,
    trustedMembers: trustedMembers ?? [],
    callerToken: token,
    auditFile: files.auditFile,
    replayFile: files.replayFile,
    revocationFile: files.revocationFile,
    ...(options.redisUrl === undefined ? {} : { redisUrl: options.redisUrl }),
    ...(options.rateLimits === undefined ? {} : { rateLimits: options.rateLimits }),
    ...(options.dispatcher === undefined ? {} : { dispatcher: options.dispatcher }),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  });
  if (trustedMembers === undefined) {
    app.log.warn(`no ${files.trustedMembersFile}: this sidecar trusts no member, and refuses every grant`);
  }
  try {
    await app.listen({ host: SIDECAR_HOST, port });
  } catch (error) {
    await app.close();
    throw error;
  }
  const address = app.server.address();
  const boundPort = typeof address === "object" && address !== null ? address.port : port;
  return {
    ...files,
    address: `http://${SIDECAR_HOST}:${boundPort}`,
    port: boundPort,
    publicKey: keys.publicKey,
    app,
    close: () => app.close(),
  };
}

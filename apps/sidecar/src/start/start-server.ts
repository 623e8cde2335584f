import { mkdir } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";
import { ready } from "@eleven-integrations/grants";
import { loadRegistry, type Registry } from "@eleven-integrations/loader";
import { manifestFiles, signedRegistryFile } from "@eleven-integrations/manifests";
import type { FastifyInstance } from "fastify";
import type { Dispatcher } from "undici";
import { buildApp } from "../app.js";
import type { ExecutorLimits, SidecarLoggerOption } from "../config/config.js";
import type { RateLimits } from "../state/shared-state.js";
import { checkHomeFolder } from "./home-folder.js";
import { resolveCallerGroup } from "./caller-group.js";
import { embeddedReleaseSequence, registryFloor } from "../registry/embedded-sequence.js";
import { loadOrCreateAuditKey } from "./audit-key-file.js";
import { loadOrCreateReceiptKeys } from "./receipt-key-file.js";
import { loadOrCreateBotKeys, loadOrCreateCallerToken, loadTrustedMembers } from "./key-files.js";
import { SidecarStartError } from "./start-error.js";
import { sidecarFiles, type SidecarFiles } from "./sidecar-files.js";
import { createObservability } from "../metrics/observability.js";
import { startMetricsServer } from "../metrics/metrics-server.js";
import { prepareSocketPath, restrictSocket, SOCKET_FILE_NAME } from "./unix-socket.js";

/** The only TCP address a sidecar listens on (when asked to use TCP). */
export const SIDECAR_HOST = "127.0.0.1";
export const DEFAULT_PORT = 8787;

export interface StartSidecarOptions {
  /** Directory of the sidecar's files, created 0700 when missing; default `~/.eleven-sidecar`. */
  home?: string;
  /**
   * Listen on loopback TCP, 127.0.0.1:`port` (0 for any free port), instead of
   * the Unix socket. Any local process can connect to, or squat, a TCP port;
   * only the sidecar's user can reach its socket.
   */
  port?: number;
  /** The Unix socket to listen on; default `<home>/sidecar.sock`. Not with `port`. */
  socket?: string;
  /** Default: the shipped manifests (`@eleven-integrations/manifests`). */
  registry?: Registry;
  /** Leave out in production (the executor's hardened dispatcher); tests point it at loopback stand-ins. */
  dispatcher?: Dispatcher;
  /** Overrides every poll event's `every`, in milliseconds (tests only). */
  pollEveryMs?: number;
  limits?: ExecutorLimits;
  /** fastify's logger option; default none. */
  logger?: SidecarLoggerOption;
  /** Redis shared by every sidecar of this bot (replay set, rate limits, revocations); without it, this process and its journals. */
  redisUrl?: string;
  /** Redis Sentinel instead of `redisUrl`: the sentinels (`"host:port"`) and the primary's name they monitor. */
  redisSentinels?: string[];
  redisName?: string;
  /** Runs allowed per grant and per integration (defaults: 60 and 300 a minute). */
  rateLimits?: RateLimits;
  /** The broker's `GET /registry.signed` to follow (see `SidecarConfig.registryUrl`). */
  registryUrl?: string;
  /** Trusted release public keys; required with `registryUrl`. */
  registryKeys?: string[];
  /** Milliseconds between syncs; default 60 000. */
  registrySyncMs?: number;
  /**
   * The lowest registry release sequence to run (see `SidecarConfig.registryMinSequence`): for
   * an unsigned build that ships no signed release, the sequence of the release it was built after.
   */
  registryMinSequence?: number;
  /** Milliseconds between two fetches of the broker's revocations (see `SidecarConfig.revocationSyncMs`); default 5 000, at most 5 000. */
  revocationSyncMs?: number;
  /** Where release fetches go (tests); default a plain undici Agent. */
  registryDispatcher?: Dispatcher;
  /** Rotate the audit log past this many bytes (see `SidecarConfig.auditRotateBytes`); default never. */
  auditRotateBytes?: number;
  /**
   * The group (gid or name) whose members may call this sidecar: its socket becomes 0660 and its
   * caller token 0640 for that group; every other file stays the owner's alone. Unset: owner only.
   */
  callerGroup?: string;
  /** Serve `/metrics`, `/healthz` and `/readyz` on 127.0.0.1:`metricsPort` (0 picks a free port); unset: no metrics listener, nothing counted. */
  metricsPort?: number;
}

export interface RunningSidecar extends SidecarFiles {
  /** `unix:<socket path>` or `http://127.0.0.1:<port>`: what `integrations --sidecar` takes. */
  address: string;
  /** The TCP port, when listening on TCP. */
  port: number | undefined;
  /** The socket's path, when listening on a Unix socket. */
  socketPath: string | undefined;
  /** The bot's X25519 public key, which members seal grants to. */
  publicKey: string;
  /** The fastify instance, for logging and tests. */
  app: FastifyInstance;
  /** The metrics listener's port, when `metricsPort` was given. */
  metricsPort: number | undefined;
  /** Stops accepting connections, lets requests in flight finish and write their audit lines, then resolves. */
  close(): Promise<void>;
}

function checkPort(port: number): number {
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new SidecarStartError("invalid_setting", `the port must be an integer from 0 to 65535, not ${port}`);
  }
  return port;
}

/** A sidecar asked to listen on TCP. */
export interface RunningTcpSidecar extends RunningSidecar {
  port: number;
  socketPath: undefined;
}

/**
 * Starts a sidecar: creates its home directory (0700) and any missing key and
 * token files (0600), refuses key files others can read, loads the trusted
 * members, and listens on its Unix socket (`<home>/sidecar.sock`, 0600) or,
 * given `port`, on 127.0.0.1. Throws `SidecarStartError` before listening when
 * a file or setting is unsafe or invalid.
 */
export async function startSidecar(options: StartSidecarOptions & { port: number }): Promise<RunningTcpSidecar>;
export async function startSidecar(options?: StartSidecarOptions): Promise<RunningSidecar>;
export async function startSidecar(options: StartSidecarOptions = {}): Promise<RunningSidecar> {
  if (options.port !== undefined && options.socket !== undefined) {
    throw new SidecarStartError("invalid_setting", "listen on a socket or on a port, not both");
  }
  const port = options.port === undefined ? undefined : checkPort(options.port);
  const metricsPort = options.metricsPort === undefined ? undefined : checkPort(options.metricsPort);
  const { registryMinSequence } = options;
  if (registryMinSequence !== undefined && (!Number.isSafeInteger(registryMinSequence) || registryMinSequence < 0)) {
    throw new SidecarStartError("invalid_setting", "registryMinSequence must be a whole number from 0");
  }
  const files = sidecarFiles(options.home);
  const socketPath = port === undefined ? socketPathFor(options.socket, files.home) : undefined;
  await mkdir(files.home, { recursive: true, mode: 0o700 });
  await checkHomeFolder(files.home);
  await ready();
  const { keys } = await loadOrCreateBotKeys(files.botKeyFile);
  const callerGroup = options.callerGroup === undefined ? undefined : await resolveCallerGroup(options.callerGroup);
  if (callerGroup !== undefined && port !== undefined) throw new SidecarStartError("invalid_setting", "a caller group shares the Unix socket; not with a port");
  const { token } = await loadOrCreateCallerToken(files.callerTokenFile, callerGroup);
  const { key: auditKey } = await loadOrCreateAuditKey(files.auditKeyFile);
  const { keys: receiptKeys } = await loadOrCreateReceiptKeys(files.receiptKeyFile, keys);
  const trustedMembers = await loadTrustedMembers(files.trustedMembersFile);
  if (socketPath !== undefined) await prepareSocketPath(socketPath);

  const registry = options.registry ?? loadRegistry(manifestFiles);
  const observability = metricsPort === undefined ? undefined : createObservability();
  const app = buildApp({
    ...(observability === undefined ? {} : { observability }),
    registry,
    embeddedSequence: options.registry === undefined ? embeddedReleaseSequence(registry, signedRegistryFile) : 0,
    // The embedded registry is never older than the release it ships beside (or the operator's floor).
    registryMinSequence: registryFloor(registry, options.registry === undefined ? signedRegistryFile : null, options.registryMinSequence),
    botKeys: keys,
    trustedMembers: trustedMembers ?? [],
    callerToken: token,
    auditFile: files.auditFile,
    auditCheckpointFile: files.auditCheckpointFile,
    auditKey,
    receiptKeys,
    filesDir: files.filesDir,
    replayFile: files.replayFile,
    revocationFile: files.revocationFile,
    outcomeFile: files.outcomeFile,
    approvalFile: files.approvalFile,
    eventFile: files.eventFile,
    ...(options.redisUrl === undefined ? {} : { redisUrl: options.redisUrl }),
    ...(options.redisSentinels === undefined ? {} : { redisSentinels: options.redisSentinels }),
    ...(options.redisName === undefined ? {} : { redisName: options.redisName }),
    ...(options.rateLimits === undefined ? {} : { rateLimits: options.rateLimits }),
    ...(options.dispatcher === undefined ? {} : { dispatcher: options.dispatcher }),
    ...(options.pollEveryMs === undefined ? {} : { pollEveryMs: options.pollEveryMs }),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(options.registryUrl === undefined
      ? {}
      : { registryUrl: options.registryUrl, registryCacheFile: files.registryCacheFile, registryHighWaterFile: files.registryHighWaterFile }),
    ...(options.registryKeys === undefined ? {} : { registryKeys: options.registryKeys }),
    ...(options.registrySyncMs === undefined ? {} : { registrySyncMs: options.registrySyncMs }),
    ...(options.revocationSyncMs === undefined ? {} : { revocationSyncMs: options.revocationSyncMs }),
    ...(options.registryDispatcher === undefined ? {} : { registryDispatcher: options.registryDispatcher }),
    ...(options.auditRotateBytes === undefined ? {} : { auditRotateBytes: options.auditRotateBytes }),
  });
  if (trustedMembers === undefined) {
    app.log.warn(`no ${files.trustedMembersFile}: this sidecar trusts no member, and refuses every grant`);
  }
  try {
    if (socketPath !== undefined) {
      await app.listen({ path: socketPath });
      await restrictSocket(socketPath, callerGroup);
    } else {
      await app.listen({ host: SIDECAR_HOST, port: port ?? DEFAULT_PORT });
    }
  } catch (error) {
    await app.close();
    throw error;
  }
  let metricsServer: Awaited<ReturnType<typeof startMetricsServer>> | undefined;
  if (observability !== undefined && metricsPort !== undefined) {
    try {
      metricsServer = await startMetricsServer(observability.metrics, observability.readiness, metricsPort);
    } catch (error) {
      await app.close();
      throw error;
    }
  }
  // The probes answer until the main listener has drained, so an orchestrator sees the sidecar go.
  const close = async () => {
    await app.close();
    await metricsServer?.app.close();
  };
  const common = { ...files, publicKey: keys.publicKey, app, close, metricsPort: metricsServer?.port };
  if (socketPath !== undefined) return { ...common, address: `unix:${socketPath}`, port: undefined, socketPath };
  const address = app.server.address();
  const boundPort = typeof address === "object" && address !== null ? address.port : (port ?? DEFAULT_PORT);
  return { ...common, address: `http://${SIDECAR_HOST}:${boundPort}`, port: boundPort, socketPath: undefined };
}

function socketPathFor(socket: string | undefined, home: string): string {
  if (socket === undefined) return join(home, SOCKET_FILE_NAME);
  if (socket === "" || !isAbsolute(resolve(socket))) throw new SidecarStartError("invalid_setting", "the socket must be a path");
  return resolve(socket);
}

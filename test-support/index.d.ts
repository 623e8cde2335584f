import type { Dispatcher } from "undici";

export interface TestCertificates {
  /** The test CA's certificate: the only root a loopback dispatcher trusts. */
  readonly ca: string;
  /** Key and certificate naming every host, signed by the test CA. */
  readonly key: string;
  readonly cert: string;
}

/** A throwaway CA and one server certificate for `hosts`, for loopback TLS servers. */
export function createTestCertificates(hosts: readonly string[]): Promise<TestCertificates>;

/**
 * A dispatcher that opens each connection to the loopback port routed for the
 * request's host name, while TLS still sends that name (SNI) and verifies the
 * server's certificate for it against `ca` alone. A host without a route fails
 * with ENOTFOUND, so nothing leaves the machine.
 */
export function createLoopbackDispatcher(ca: string, routes: ReadonlyMap<string, number> | Readonly<Record<string, number>>): Dispatcher;

/** A real redis-server on 127.0.0.1, in its own temporary folder. */
export interface TestRedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  /** Kills the server (SIGKILL, like a crash); `start()` brings it back, empty, on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it for good and removes its folder. */
  close(): Promise<void>;
}

/** Starts redis-server on a free loopback port, installing it with apt-get when it is missing. */
export function startRedisServer(): Promise<TestRedisServer>;
/** The path of redis-server, installed with apt-get when missing. */
export function ensureRedisServer(): string;

/** The path of redis-sentinel, installed with apt-get when missing. */
export function ensureRedisSentinel(): string;

/** A primary and a replica (real redis-servers) watched by a real redis-sentinel on 127.0.0.1. */
export interface TestRedisSentinel {
  /** The name the sentinel monitors. */
  readonly name: string;
  /** The sentinel's port. */
  readonly port: number;
  /** The servers as started: `primary` is the primary until the first failover. */
  readonly primary: TestRedisServer;
  readonly replica: TestRedisServer;
  /** The port of the primary the sentinel names now. */
  primaryPort(): Promise<number>;
  /** Forces SENTINEL FAILOVER; resolves once the replica is the primary and the old primary its replica. */
  failover(): Promise<{ from: number; to: number }>;
  /** Stops the sentinel and both servers, removes their folders. */
  close(): Promise<void>;
}

/** Starts a primary, a replica in sync with it, and a sentinel monitoring them (quorum 1, down after 1 s). */
export function startRedisSentinel(options?: { name?: string }): Promise<TestRedisSentinel>;

/** What a dripping client saw when the server closed on it. */
export interface SlowAnswer {
  /** The status line's code, or undefined when the server closed without answering. */
  status: number | undefined;
  /** Milliseconds from the first byte sent until the server closed the connection. */
  closedAfterMs: number;
  /** Bytes the client had sent when the server closed. */
  sentBytes: number;
}

/**
 * A raw client on 127.0.0.1:`port` that sends `head`, then drips `drip` one
 * byte every `everyMs` until the server closes the connection (or `giveUpMs`).
 */
export function slowRequest(port: number, head: string, drip: string, everyMs: number, giveUpMs?: number): Promise<SlowAnswer>;

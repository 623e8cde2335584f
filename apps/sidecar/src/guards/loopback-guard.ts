/** Host names a loopback caller may use; a DNS-rebinding page can only send its own name. */
const LOOPBACK_HOSTS = ["127.0.0.1", "[::1]", "localhost"] as const;
/** The port a request is taken to arrive on when it has no socket (fastify's `inject`). */
const INJECTED_PORT = 80;

export type LoopbackVerdict = { ok: true } | { ok: false; code: "forbidden_host" | "forbidden_origin"; message: string };

/** Every `Host` value accepted for port `port`: `127.0.0.1:P`, `[::1]:P`, `localhost:P` (and the bare names on port 80). */
export function allowedHosts(port: number): Set<string> {
  const hosts = new Set<string>(LOOPBACK_HOSTS.map((host) => `${host}:${port}`));
  if (port === INJECTED_PORT) for (const host of LOOPBACK_HOSTS) hosts.add(host);
  return hosts;
}

/**
 * Checks a request's `Host` and `Origin` against the loopback address it arrived
 * on. A page on a rebound DNS name reaches 127.0.0.1 carrying its own name as
 * `Host`, and a cross-site page carries its own `Origin`: both are refused, as is
 * `Origin: null` (sandboxed frames, file: pages).
 *
 * @param localPort the port the request arrived on (`request.socket.localPort`);
 *   undefined for an injected request, which is taken as port 80.
 */
export function checkLoopback(host: string | undefined, origin: string | string[] | undefined, localPort: number | undefined): LoopbackVerdict {
  const hosts = allowedHosts(localPort ?? INJECTED_PORT);
  if (host === undefined || !hosts.has(host)) {
    return { ok: false, code: "forbidden_host", message: "Host must name this sidecar's loopback address and port" };
  }
  if (origin === undefined) return { ok: true };
  if (typeof origin !== "string" || !origin.startsWith("http://") || !hosts.has(origin.slice("http://".length))) {
    return { ok: false, code: "forbidden_origin", message: "Origin, when sent, must be this sidecar's own http loopback origin" };
  }
  return { ok: true };
}

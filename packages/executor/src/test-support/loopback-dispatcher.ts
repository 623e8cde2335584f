import { Agent, buildConnector, type Dispatcher } from "undici";

/**
 * A dispatcher for tests: it opens each connection to the loopback port routed for the
 * request's host name, while TLS still sends that host name (SNI) and verifies the
 * server's certificate for it against the test CA alone. A host without a route fails.
 */
export function createLoopbackDispatcher(ca: string, routes: ReadonlyMap<string, number>): Dispatcher {
  const connector = buildConnector({ ca, allowH2: false, rejectUnauthorized: true });
  return new Agent({
    allowH2: false,
    connect: (target, callback) => {
      const port = routes.get(target.hostname);
      if (port === undefined) {
        callback(Object.assign(new Error(`no loopback route for ${target.hostname}`), { code: "ENOTFOUND" }), null);
        return;
      }
      connector({ ...target, hostname: "127.0.0.1", port: String(port), servername: target.hostname }, callback);
    },
  });
}

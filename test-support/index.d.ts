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

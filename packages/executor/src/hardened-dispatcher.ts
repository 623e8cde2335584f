import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import { Agent, buildConnector, type Dispatcher } from "undici";
import { AddressRefusedError } from "./address-refused-error.js";
import { isPublicAddress } from "./is-public-address.js";

export interface HardenedDispatcherOptions {
  /**
   * Resolves host names (`dns.lookup` by default). Every answer is checked before a
   * socket is opened; tests inject answers here to exercise the check.
   */
  readonly lookup?: LookupFunction;
  /** How long a TCP and TLS handshake may take, in milliseconds. Default 10 000. */
  readonly connectTimeoutMs?: number;
}

/**
 * The executor's default dispatcher: an undici Agent that speaks HTTP/1.1 only and
 * refuses, at connect time, any address that is not public unicast (loopback,
 * private, link-local, CGNAT, unique-local and their IPv4-mapped or NAT64 forms).
 * The check runs on the resolved answers themselves, so DNS rebinding cannot reach
 * inside; when one answer is refused the whole connection is, before a byte is sent.
 */
export function createHardenedDispatcher(options: HardenedDispatcherOptions = {}): Dispatcher {
  const lookup = checkedLookup(options.lookup ?? (dnsLookup as LookupFunction));
  const connector = buildConnector({ allowH2: false, lookup, timeout: options.connectTimeoutMs ?? 10_000 });
  const connect: buildConnector.connector = (target, callback) => {
    const literal = target.hostname.replace(/^\[(.*)\]$/, "$1");
    if (isIP(literal) !== 0 && !isPublicAddress(literal)) {
      callback(new AddressRefusedError(target.hostname, literal), null);
      return;
    }
    connector(target, callback);
  };
  return new Agent({ allowH2: false, connect });
}

/** Wraps a lookup so that an answer holding any non-public address fails instead. */
export function checkedLookup(lookup: LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, options, (error, address, family) => {
      if (error !== null) return callback(error, address, family);
      const answers = Array.isArray(address) ? (address as LookupAddress[]).map((entry) => entry.address) : [address];
      const refused = answers.length === 0 ? "" : answers.find((answer) => !isPublicAddress(answer));
      if (refused !== undefined) return callback(new AddressRefusedError(hostname, refused), Array.isArray(address) ? [] : "", family);
      callback(null, address, family);
    });
  };
}

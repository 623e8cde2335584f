import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { Agent, type Dispatcher } from "undici";
import { isPublicAddress } from "./public-address.js";

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
type Lookup = (hostname: string, options: LookupOptions, callback: LookupCallback) => void;

/**
 * A `lookup` for undici's `connect` option that answers only public unicast
 * addresses, so a name that resolves (or rebinds) inside the network is never
 * connected to. `resolve` is injectable for tests.
 */
export function publicOnlyLookup(resolve: Lookup = dnsLookup as Lookup): Lookup {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error !== null) return callback(error, []);
      const list = Array.isArray(addresses) ? addresses : [{ address: addresses, family: options.family === 6 ? 6 : 4 }];
      const allowed = list.filter((entry) => isPublicAddress(entry.address));
      if (allowed.length === 0) {
        const refused: NodeJS.ErrnoException = new Error(`${hostname} resolves to no public address`);
        refused.code = "ENOTFOUND";
        return callback(refused, []);
      }
      if (options.all === true) return callback(null, allowed);
      const first = allowed[0] as LookupAddress;
      return callback(null, first.address, first.family);
    });
  };
}

/** The broker's default outbound dispatcher: HTTP/1.1, public addresses only, bounded waits. */
export function createDefaultDispatcher(): Dispatcher {
  return new Agent({
    allowH2: false,
    connect: { lookup: publicOnlyLookup(), timeout: 10_000 },
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
  });
}

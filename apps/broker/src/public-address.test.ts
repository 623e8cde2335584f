import type { LookupAddress } from "node:dns";
import { describe, expect, it } from "vitest";
import { publicOnlyLookup } from "./outbound-dispatcher.js";
import { isPublicAddress } from "./public-address.js";

describe("isPublicAddress", () => {
  it.each(["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8"])("allows %s", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "::1",
    "::",
    "fe80::1",
    "fd00::1",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:a9fe:a9fe",
    "64:ff9b::10.0.0.1",
    "::127.0.0.1",
    "localhost",
    "not an address",
  ])("refuses %s", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});

describe("publicOnlyLookup", () => {
  const fakeResolve = (addresses: LookupAddress[]) => (_host: string, _options: object, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) =>
    callback(null, addresses);

  function lookup(addresses: LookupAddress[], all: boolean) {
    return new Promise<{ error: NodeJS.ErrnoException | null; address: unknown; family?: number | undefined }>((resolve) =>
      publicOnlyLookup(fakeResolve(addresses))("token.example.com", { all }, (error, address, family) => resolve({ error, address, family })),
    );
  }

  it("answers only the public addresses a name resolves to", async () => {
    const result = await lookup([{ address: "10.0.0.1", family: 4 }, { address: "93.184.216.34", family: 4 }], true);
    expect(result.address).toEqual([{ address: "93.184.216.34", family: 4 }]);
    const single = await lookup([{ address: "::1", family: 6 }, { address: "2606:4700:4700::1111", family: 6 }], false);
    expect([single.address, single.family]).toEqual(["2606:4700:4700::1111", 6]);
  });

  it("fails a name that resolves (or rebinds) to private addresses only", async () => {
    const result = await lookup([{ address: "127.0.0.1", family: 4 }, { address: "169.254.169.254", family: 4 }], true);
    expect(result.error?.code).toBe("ENOTFOUND");
    expect(result.error?.message).toContain("no public address");
  });
});

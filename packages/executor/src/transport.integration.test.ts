import diagnosticsChannel from "node:diagnostics_channel";
import type { LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AddressRefusedError } from "./address-refused-error.js";
import { createExecutor } from "./create-executor.js";
import { checkedLookup, createHardenedDispatcher } from "./hardened-dispatcher.js";
import { startHarness, type Harness } from "./test-support/harness.js";
import { createLoopbackDispatcher, createTestCertificates } from "@eleven-integrations/test-support";
import { EXAMPLE_HOST, testRegistry } from "./test-support/test-registry.js";
import { startTestServer } from "./test-support/test-server.js";

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());
beforeEach(() => {
  harness.server.requests.length = 0;
  harness.evil.requests.length = 0;
});

const credential = { token: "secret-token" };
const listItems = { integration: "example", op: "items.list", credential } as const;

describe("redirects are never followed", () => {
  it.each([301, 302, 303, 307, 308])("a %i to another server is redirect_refused, and that server receives nothing", async (status) => {
    harness.server.handle((_request, reply) => reply.code(status).header("location", `https://evil.example/steal`).send());
    const envelope = await harness.executor().run(listItems);
    expect(envelope).toMatchObject({
      status: "error",
      error: { code: "redirect_refused", http_status: status, next_action: expect.stringMatching(/never followed/) },
    });
    expect(harness.server.requests).toHaveLength(1);
    expect(harness.evil.requests).toHaveLength(0);
    expect(JSON.stringify(envelope)).not.toContain("evil.example");
  });

  it("a write answered with a redirect is sent once, and not to the new location", async () => {
    harness.server.handle((_request, reply) => reply.code(307).header("location", "https://evil.example/items").send());
    const envelope = await harness.executor().run({ integration: "example", op: "items.create", args: { title: "t" }, credential });
    expect(envelope).toMatchObject({ error: { code: "redirect_refused" } });
    expect(harness.server.requests).toHaveLength(1);
    expect(harness.evil.requests).toHaveLength(0);
  });
});

describe("the wire", () => {
  it("speaks HTTP/1.1 to the manifest's host and sends no accept-encoding", async () => {
    harness.server.handle((_request, reply, raw) => reply.send([{ id: raw.raw.httpVersion }]));
    const envelope = await harness.executor().run(listItems);
    expect(envelope).toMatchObject({ status: "ok", data: [{ id: "1.1" }] });
    const headers = harness.server.requests[0]?.headers ?? {};
    expect(headers.host).toBe("api.example.com");
    expect(headers["accept-encoding"]).toBeUndefined();
  });

  it("verifies the certificate for the manifest's host name: a certificate for another name is network_error", async () => {
    const wrongName = await createTestCertificates(["other.example.net"]);
    const impostor = await startTestServer(wrongName, (_request, reply) => reply.send({ stolen: true }));
    const dispatcher = createLoopbackDispatcher(wrongName.ca, new Map([[EXAMPLE_HOST, impostor.port]]));
    try {
      const envelope = await createExecutor({ registry: testRegistry(), dispatcher }).run(listItems);
      expect(envelope).toMatchObject({
        status: "error",
        error: { code: "network_error", message: expect.stringMatching(/TLS certificate of api.example.com/) },
      });
      expect(impostor.requests).toHaveLength(0);
    } finally {
      await dispatcher.destroy();
      await impostor.close();
    }
  });

  it("trusts only the configured CA: a certificate from another CA is network_error", async () => {
    const otherCa = await createTestCertificates([EXAMPLE_HOST]);
    const impostor = await startTestServer(otherCa, (_request, reply) => reply.send({ stolen: true }));
    const ownCa = await createTestCertificates([EXAMPLE_HOST]);
    const dispatcher = createLoopbackDispatcher(ownCa.ca, new Map([[EXAMPLE_HOST, impostor.port]]));
    try {
      const envelope = await createExecutor({ registry: testRegistry(), dispatcher }).run(listItems);
      expect(envelope).toMatchObject({ error: { code: "network_error" } });
      expect(impostor.requests).toHaveLength(0);
    } finally {
      await dispatcher.destroy();
      await impostor.close();
    }
  });

  it("a refused connection is network_error naming the host, never the token", async () => {
    const dispatcher = createLoopbackDispatcher("unused", new Map());
    const envelope = await createExecutor({ registry: testRegistry(), dispatcher, limits: { retries: 0 } }).run(listItems);
    expect(envelope).toMatchObject({ error: { code: "network_error", next_action: expect.stringMatching(/api.example.com could not be reached/) } });
    expect(JSON.stringify(envelope)).not.toContain("secret-token");
    await dispatcher.destroy();
  });
});

describe("a write whose answer never came", () => {
  const createItem = { integration: "example", op: "items.create", args: { title: "t" }, credential } as const;

  it("is outcome_unknown when the connection closes after the request was read, and is sent once", async () => {
    harness.server.handle((_request, _reply, raw) => {
      raw.raw.socket.destroy();
    });
    const envelope = await harness.executor().run(createItem);
    expect(envelope).toMatchObject({
      status: "error",
      error: { code: "outcome_unknown", next_action: expect.stringMatching(/^check the provider before trying again/) },
    });
    expect(harness.server.requests).toHaveLength(1);
  });

  it("is outcome_unknown when the provider does not answer within the deadline", async () => {
    harness.server.handle(() => new Promise(() => undefined));
    const envelope = await harness.executor({ timeoutMs: 300 }).run(createItem);
    expect(envelope).toMatchObject({ status: "error", error: { code: "outcome_unknown" } });
    expect(harness.server.requests).toHaveLength(1);
  });

  it("a read closed the same way stays network_error", async () => {
    harness.server.handle((_request, _reply, raw) => {
      raw.raw.socket.destroy();
    });
    const envelope = await harness.executor({ retries: 0 }).run(listItems);
    expect(envelope).toMatchObject({ status: "error", error: { code: "network_error" } });
  });

  it("a refused connection sent nothing: a write stays network_error", async () => {
    const dispatcher = createLoopbackDispatcher("unused", new Map());
    const envelope = await createExecutor({ registry: testRegistry(), dispatcher }).run(createItem);
    expect(envelope).toMatchObject({ error: { code: "network_error" } });
    await dispatcher.destroy();
  });
});

describe("the default dispatcher refuses non-public addresses before a byte is sent", () => {
  const events = { connected: 0, sendHeaders: 0, connectErrors: [] as unknown[] };
  const onConnected = () => void (events.connected += 1);
  const onSendHeaders = () => void (events.sendHeaders += 1);
  const onConnectError = (message: unknown) => void events.connectErrors.push((message as { error: unknown }).error);
  beforeAll(() => {
    diagnosticsChannel.subscribe("undici:client:connected", onConnected);
    diagnosticsChannel.subscribe("undici:client:sendHeaders", onSendHeaders);
    diagnosticsChannel.subscribe("undici:client:connectError", onConnectError);
  });
  afterAll(() => {
    diagnosticsChannel.unsubscribe("undici:client:connected", onConnected);
    diagnosticsChannel.unsubscribe("undici:client:sendHeaders", onSendHeaders);
    diagnosticsChannel.unsubscribe("undici:client:connectError", onConnectError);
  });

  /** A lookup that answers `addresses` for every name, in whichever form it is asked for. */
  function answering(addresses: string[], asked: string[]): LookupFunction {
    return (hostname, options, callback) => {
      asked.push(hostname);
      const entries: LookupAddress[] = addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
      if (options.all === true) callback(null, entries);
      else callback(null, entries[0]?.address ?? "", entries[0]?.family ?? 4);
    };
  }

  it.each([["127.0.0.1"], ["10.0.0.1"], ["169.254.169.254"], ["::1"], ["::ffff:127.0.0.1"], ["fd00::1"], ["100.64.0.1"], ["8.8.8.8", "192.168.0.1"]])(
    "%s",
    async (...addresses) => {
      events.connected = 0;
      events.sendHeaders = 0;
      events.connectErrors.length = 0;
      const asked: string[] = [];
      const dispatcher = createHardenedDispatcher({ lookup: answering(addresses, asked) });
      try {
        const envelope = await createExecutor({ registry: testRegistry(), dispatcher }).run(listItems);
        expect(envelope).toMatchObject({
          status: "error",
          error: { code: "network_error", message: "refused to connect: api.example.com resolved to an address that is not public" },
        });
        // The envelope never names the address the host resolved to (it may be an internal one).
        const text = JSON.stringify(envelope);
        for (const address of addresses) expect(text).not.toContain(address);
        expect(text).not.toMatch(/\b\d{1,3}(?:\.\d{1,3}){3}\b|::/);
        expect(asked).toEqual(["api.example.com"]);
        expect(events.connected).toBe(0);
        expect(events.sendHeaders).toBe(0);
        expect(events.connectErrors.length).toBeGreaterThan(0);
        expect(events.connectErrors.every((error) => AddressRefusedError.isInstance(error))).toBe(true);
      } finally {
        await dispatcher.close();
      }
    },
  );

  it.each(["https://127.0.0.1", "https://[::1]", "https://[::ffff:169.254.169.254]"])("refuses the IP literal origin %s without a lookup", async (origin) => {
    const asked: string[] = [];
    const dispatcher = createHardenedDispatcher({ lookup: answering(["8.8.8.8"], asked) });
    try {
      const error = await dispatcher.request({ origin, path: "/", method: "GET" }).then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(AddressRefusedError.isInstance(error)).toBe(true);
      expect(asked).toEqual([]);
    } finally {
      await dispatcher.close();
    }
  });

  it("the checked lookup passes public answers through unchanged, in both answer forms", async () => {
    const lookup = checkedLookup(answering(["140.82.112.6", "2606:4700::1111"], []));
    const all = await new Promise<unknown>((resolve, reject) =>
      lookup("api.github.com", { all: true }, (error, address) => (error ? reject(error) : resolve(address))),
    );
    expect(all).toEqual([
      { address: "140.82.112.6", family: 4 },
      { address: "2606:4700::1111", family: 6 },
    ]);
    const one = await new Promise<unknown>((resolve, reject) => lookup("api.github.com", {}, (error, address) => (error ? reject(error) : resolve(address))));
    expect(one).toBe("140.82.112.6");
  });

  it("a resolution that fails is passed on as it is", async () => {
    const failing: LookupFunction = (_hostname, _options, callback) => callback(Object.assign(new Error("nope"), { code: "ENOTFOUND" }), "", 4);
    const dispatcher = createHardenedDispatcher({ lookup: failing });
    try {
      const envelope = await createExecutor({ registry: testRegistry(), dispatcher }).run(listItems);
      expect(envelope).toMatchObject({ error: { code: "network_error", message: expect.stringMatching(/could not be resolved \(ENOTFOUND\)/) } });
    } finally {
      await dispatcher.close();
    }
  });
});

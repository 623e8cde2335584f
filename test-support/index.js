// Loopback TLS for tests and benchmarks. Plain JavaScript so that both vitest
// suites and the `bench/` scripts import it without a build step.
import { generate } from "selfsigned";
import { Agent, buildConnector } from "undici";

export async function createTestCertificates(hosts) {
  const ca = await generate([{ name: "commonName", value: "Eleven integrations test CA" }], {
    keyType: "ec",
    algorithm: "sha256",
    extensions: [
      { name: "basicConstraints", cA: true, critical: true },
      { name: "keyUsage", keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  const leaf = await generate([{ name: "commonName", value: hosts[0] ?? "api.example.com" }], {
    keyType: "ec",
    algorithm: "sha256",
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: "basicConstraints", cA: false },
      { name: "keyUsage", digitalSignature: true, keyEncipherment: true },
      { name: "extKeyUsage", serverAuth: true },
      { name: "subjectAltName", altNames: hosts.map((host) => ({ type: 2, value: host })) },
    ],
  });
  return { ca: ca.cert, key: leaf.private, cert: leaf.cert };
}

export function createLoopbackDispatcher(ca, routes) {
  const table = routes instanceof Map ? routes : new Map(Object.entries(routes));
  const connector = buildConnector({ ca, allowH2: false, rejectUnauthorized: true });
  return new Agent({
    allowH2: false,
    connect: (target, callback) => {
      const port = table.get(target.hostname);
      if (port === undefined || target.protocol !== "https:") {
        callback(Object.assign(new Error(`no loopback route for ${target.protocol}//${target.hostname}`), { code: "ENOTFOUND" }), null);
        return;
      }
      connector({ ...target, hostname: "127.0.0.1", port: String(port), servername: target.hostname }, callback);
    },
  });
}

export { startRedisServer, ensureRedisServer, ensureRedisSentinel, startRedisSentinel } from "./redis.js";
export { slowRequest } from "./slow-client.js";

import { generate } from "selfsigned";

export interface TestCertificates {
  /** The test CA's certificate: the only root the test dispatcher trusts. */
  readonly ca: string;
  /** Key and certificate for every host name, signed by the test CA. */
  readonly key: string;
  readonly cert: string;
}

/** A throwaway CA and one server certificate naming `hosts`, for loopback TLS servers. */
export async function createTestCertificates(hosts: readonly string[]): Promise<TestCertificates> {
  const ca = await generate([{ name: "commonName", value: "Eleven executor test CA" }], {
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
      { name: "subjectAltName", altNames: hosts.map((host) => ({ type: 2 as const, value: host })) },
    ],
  });
  return { ca: ca.cert, key: leaf.private, cert: leaf.cert };
}

import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateReleaseKeys, ready, signRelease } from "@eleven-integrations/grants";
import { loadRegistry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";
import type { FastifyInstance } from "fastify";
import { request } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_ID, CLIENT_SECRET, PUBLIC_URL, RETURN_TO, oauthManifest, patManifest, randomKey } from "../__fixtures__/test-registry.js";
import { startBroker, startupFailure } from "./start-server.js";

let app: FastifyInstance | undefined;
let dir: string;
const logs: string[] = [];
const logger = { level: "info", stream: { write: (line: string) => void logs.push(line) } };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "broker-server-"));
});
afterEach(async () => {
  await app?.close();
  app = undefined;
  logs.length = 0;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function get(url: string) {
  const response = await request(url);
  return { status: response.statusCode, body: await response.body.text() };
}

describe("startBroker (what `eleven-broker` runs)", () => {
  it("with BROKER_REGISTRY_RELEASE (and BROKER_RELEASE_KEYS), serves the signed release byte for byte and its manifests", async () => {
    await ready();
    const key = generateReleaseKeys();
    const registry = loadRegistry([{ file: "patonly.json", json: patManifest }]);
    const document = signRelease(
      { schema: 1, hash: registry.hash, sequence: 7, previous: null, integrations: registry.catalog().integrations.map(({ hash: _h, ...m }) => m) },
      [key],
    );
    const file = join(dir, "release.json");
    await writeFile(file, document);
    const started = await startBroker({ PORT: "0", BROKER_REGISTRY_RELEASE: file, BROKER_RELEASE_KEYS: key.publicKey }, { logger });
    app = started.app;
    const signed = await get(`${started.url}/registry.signed`);
    expect(signed.status).toBe(200);
    expect(signed.body).toBe(document);
    expect(JSON.parse((await get(`${started.url}/registry`)).body).hash).toBe(registry.hash);
    expect(logs.join("")).toContain(`signed release ${file}`);
    await app.close();
    app = undefined;
    await expect(startBroker({ PORT: "0", BROKER_REGISTRY_RELEASE: file, BROKER_RELEASE_KEYS: generateReleaseKeys().publicKey }, { logger })).rejects.toThrow(
      /untrusted_key/,
    );
    await expect(startBroker({ PORT: "0", BROKER_REGISTRY_RELEASE: join(dir, "missing.json") }, { logger })).rejects.toThrow(/cannot read/);
  });

  it("with no configuration, serves the embedded registry on loopback in development mode and says so", async () => {
    const started = await startBroker({ PORT: "0" }, { logger });
    app = started.app;
    expect(started.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const registry = await get(`${started.url}/registry`);
    expect(registry.status).toBe(200);
    expect(JSON.parse(registry.body).integrations).toHaveLength(manifestFiles.length);
    expect((await get(`${started.url}/`)).status).toBe(200);
    const connect = await get(`${started.url}/connect/github/start?client_key=x&return_to=y`);
    expect(connect.status).toBe(400);
    expect(logs.join("")).toContain("DEVELOPMENT configuration");
    expect(logs.join("")).toContain("ephemeral state key");
  });

  it("with BROKER_CONFIG_FILE, serves the folder it names and the OAuth apps it holds", async () => {
    const manifests = join(dir, "manifests");
    await mkdir(manifests, { recursive: true });
    await writeFile(join(manifests, "testauth.json"), JSON.stringify(oauthManifest));
    await writeFile(join(manifests, "patonly.json"), JSON.stringify(patManifest));
    const configFile = join(dir, "broker.json");
    const config = {
      publicUrl: PUBLIC_URL,
      stateKey: randomKey(),
      allowedReturnTo: [RETURN_TO],
      oauthApps: { testauth: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET } },
      port: 0,
      registryDir: "manifests",
    };
    await writeFile(configFile, JSON.stringify(config), { mode: 0o600 });
    const started = await startBroker({ BROKER_CONFIG_FILE: configFile }, { logger });
    app = started.app;
    const catalog = JSON.parse((await get(`${started.url}/registry`)).body);
    expect(catalog.integrations.map((entry: { id: string }) => entry.id)).toEqual(["patonly", "testauth"]);
    expect(catalog.integrations[1].oauth_available).toBe(true);
    expect(logs.join("")).not.toContain(CLIENT_SECRET);
    expect(logs.join("")).not.toContain(config.stateKey);
  });

  it("refuses to start on a bad configuration or a bad registry, saying why", async () => {
    const configError = await startBroker({ BROKER_PUBLIC_URL: "http://x.example.com", PORT: "0" }, { logger }).catch((error: unknown) => error);
    expect(startupFailure(configError)).toContain("BROKER_PUBLIC_URL: must use https");
    expect(startupFailure(configError)).toContain("BROKER_STATE_KEY: is required");

    const broken = join(dir, "broken");
    await mkdir(broken, { recursive: true });
    await writeFile(join(broken, "bad.json"), JSON.stringify({ schema: 1, id: "bad" }));
    const registryError = await startBroker({ BROKER_REGISTRY_DIR: broken, PORT: "0" }, { logger }).catch((error: unknown) => error);
    expect(startupFailure(registryError)).toContain("the registry did not load");
    expect(startupFailure(registryError)).toContain("bad.json");
  });

  it("refuses to start with an OAuth app for an integration that has no OAuth (the shipped Gandi), naming it", async () => {
    const configFile = join(dir, "broker-gandi.json");
    const config = {
      publicUrl: PUBLIC_URL,
      stateKey: randomKey(),
      allowedReturnTo: [RETURN_TO],
      oauthApps: { gandi: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET } },
      port: 0,
    };
    await writeFile(configFile, JSON.stringify(config), { mode: 0o600 });
    const refused = await startBroker({ BROKER_CONFIG_FILE: configFile }, { logger }).catch((error: unknown) => error);
    const message = startupFailure(refused);
    expect(message).toContain("oauthApps.gandi");
    expect(message).toContain('Gandi ("gandi") has no OAuth in the registry');
    expect(message).not.toContain(CLIENT_SECRET);
  });
});

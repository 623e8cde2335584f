// A real npm registry on loopback for release tests: verdaccio 6.0.5 with a
// temporary storage folder. `@eleven-integrations/*` lives only here (no uplink,
// so nothing of ours is ever fetched from or forwarded to another registry);
// every other package is proxied from `uplink`, the registry npm is configured with.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";

const verdaccioBin = new URL("../node_modules/verdaccio/bin/verdaccio", import.meta.url).pathname;

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function configYaml({ storage, htpasswd, uplink }) {
  return `storage: ${JSON.stringify(storage)}
auth:
  htpasswd:
    file: ${JSON.stringify(htpasswd)}
    max_users: 1
uplinks:
  upstream:
    url: ${JSON.stringify(uplink)}
    timeout: 60s
    maxage: 30m
    # verdaccio marks an uplink offline for 5 minutes after 2 failed requests; one
    # slow answer on a loaded machine must not turn every later install into a 404
    max_fails: 100
    fail_timeout: 2s
packages:
  "@eleven-integrations/*":
    access: $all
    publish: $authenticated
    unpublish: $authenticated
  "**":
    access: $all
    publish: no-one-may-publish-this
    proxy: upstream
server:
  keepAliveTimeout: 60
web:
  enable: false
log: { type: stdout, format: pretty, level: warn }
`;
}

async function waitUntilUp(url, child, deadline) {
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`verdaccio exited with ${child.exitCode}`);
    try {
      const response = await fetch(`${url}-/ping`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("verdaccio did not start within 60 s");
}

/**
 * The certificate authorities npm trusts (its `cafile`), for verdaccio's requests to
 * the uplink: where a network inspects TLS with its own authority, npm is configured
 * with it and verdaccio must trust it too, or every proxied package is a 404.
 */
function trustNpmCertificates() {
  if (process.env.NODE_EXTRA_CA_CERTS) return {};
  const cafile = spawnSync("npm", ["config", "get", "cafile"], { encoding: "utf8" }).stdout?.trim() ?? "";
  return cafile !== "" && cafile !== "null" && existsSync(cafile) ? { NODE_EXTRA_CA_CERTS: cafile } : {};
}

/**
 * Starts verdaccio in `dir` on a free loopback port and creates the one user that
 * may publish. Returns `{ url, token, storage, close() }`.
 */
export async function startLocalRegistry({ dir, uplink }) {
  const storage = join(dir, "storage");
  mkdirSync(storage, { recursive: true });
  const config = join(dir, "config.yaml");
  writeFileSync(config, configYaml({ storage, htpasswd: join(dir, "htpasswd"), uplink }));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const output = [];
  const child = spawn(process.execPath, [verdaccioBin, "--config", config, "--listen", `127.0.0.1:${port}`], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...trustNpmCertificates(), VERDACCIO_HANDLE_KILL_SIGNALS: "true" },
  });
  child.stdout.on("data", (chunk) => output.push(chunk));
  child.stderr.on("data", (chunk) => output.push(chunk));
  const close = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 5000).unref();
    });
  try {
    await waitUntilUp(url, child, Date.now() + 60_000);
    const response = await fetch(`${url}-/user/org.couchdb.user:release`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "release", password: "release-test-only" }),
    });
    const body = await response.json();
    if (!response.ok || typeof body.token !== "string") throw new Error(`verdaccio refused the user: ${response.status}`);
    return { url, token: body.token, storage, close, output: () => Buffer.concat(output).toString("utf8") };
  } catch (error) {
    await close();
    throw new Error(`${error.message}\n${Buffer.concat(output).toString("utf8")}`);
  }
}

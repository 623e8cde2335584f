// `pnpm start`: the broker (loopback TCP) serving the embedded manifests as a signed release, and one
// sidecar (its Unix socket) following that release, with a development member key and a development
// release key so the commands printed below work at once.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { generateMemberKeys, generateReleaseKeys, ready, signRelease, verifyRelease } from "@eleven-integrations/grants";
import { loadRegistry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";
import { startBroker, startupFailure } from "@eleven-integrations/broker";
import { startSidecar } from "@eleven-integrations/sidecar";

const root = new URL("..", import.meta.url).pathname;
const devHome = process.env.ELEVEN_DEV_HOME ?? join(root, ".eleven-dev");
const sidecarHome = process.env.SIDECAR_HOME ?? join(devHome, "sidecar");
const memberFile = join(devHome, "member.json");
const releaseKeyFile = join(devHome, "release-key.json");
const releaseFile = join(devHome, "registry-release.json");

await ready();
mkdirSync(sidecarHome, { recursive: true, mode: 0o700 });
if (!existsSync(memberFile)) {
  const keys = generateMemberKeys();
  writeFileSync(memberFile, `${JSON.stringify({ kind: "member", ...keys }, null, 2)}\n`, { mode: 0o600 });
  writeFileSync(join(sidecarHome, "trusted-members.json"), `${JSON.stringify([keys.publicKey])}\n`, { mode: 0o600 });
}
chmodSync(memberFile, 0o600);

// A development release key, and the embedded manifests signed with it: a new release (sequence + 1)
// whenever the manifests changed since the last one, so the sidecar, which refuses any rollback, takes it.
if (!existsSync(releaseKeyFile)) {
  writeFileSync(releaseKeyFile, `${JSON.stringify({ kind: "release", ...generateReleaseKeys() }, null, 2)}\n`, { mode: 0o600 });
}
chmodSync(releaseKeyFile, 0o600);
const releaseKey = JSON.parse(readFileSync(releaseKeyFile, "utf8"));
const registry = loadRegistry(manifestFiles);
let last;
try {
  last = verifyRelease(readFileSync(releaseFile), { trustedKeys: [releaseKey.publicKey] }).registry;
} catch {
  last = undefined;
}
if (last?.hash !== registry.hash) {
  const integrations = registry.catalog().integrations.map(({ hash: _hash, ...manifest }) => manifest);
  const body = { schema: 1, hash: registry.hash, sequence: (last?.sequence ?? 0) + 1, previous: last?.hash ?? null, integrations };
  writeFileSync(releaseFile, signRelease(body, [{ publicKey: releaseKey.publicKey, secretKey: releaseKey.secretKey }]), { mode: 0o644 });
}
const release = verifyRelease(readFileSync(releaseFile), { trustedKeys: [releaseKey.publicKey] }).registry;

let broker;
try {
  broker = await startBroker({
    ...process.env,
    HOST: "127.0.0.1",
    PORT: process.env.BROKER_PORT ?? "8080",
    BROKER_REGISTRY_RELEASE: releaseFile,
    BROKER_RELEASE_KEYS: releaseKey.publicKey,
  });
} catch (error) {
  console.error(`the broker did not start: ${startupFailure(error)}`);
  process.exit(1);
}
// The sidecar listens on its Unix socket (<home>/sidecar.sock, 0600) unless SIDECAR_PORT asks for loopback TCP.
const sidecarPort = process.env.SIDECAR_PORT;
const follow = {
  registryUrl: `${broker.url}/registry.signed`,
  registryKeys: [releaseKey.publicKey],
  registrySyncMs: Number(process.env.SIDECAR_REGISTRY_SYNC_MS ?? 10_000),
  logger: { level: process.env.LOG_LEVEL ?? "info" },
};
const sidecar = await startSidecar(
  sidecarPort === undefined || sidecarPort === "" ? { home: sidecarHome, ...follow } : { home: sidecarHome, port: Number(sidecarPort), ...follow },
);

const show = (path) => relative(process.cwd(), path) || ".";
console.log(`
broker   ${broker.url}   catalog page ${broker.url}/  ·  GET ${broker.url}/registry
sidecar  ${sidecar.address}   bot public key ${sidecar.publicKey}
         files in ${show(sidecarHome)} (caller token, bot key, trusted members, audit.log, registry-release.json)
release  ${release.sequence} of the embedded manifests (registry ${release.hash.slice(0, 12)}), signed with the
         development release key ${show(releaseKeyFile)} (public key ${releaseKey.publicKey});
         the broker serves it at ${broker.url}/registry.signed and the sidecar follows it every ${follow.registrySyncMs / 1000} s

Try it (in another terminal, from this folder):
  curl -s ${broker.url}/registry/github | head -c 400; echo
  pnpm integrations registry verify --keys ${releaseKey.publicKey} ${show(releaseFile)}
  export INTEGRATION_TOKEN=<a GitHub token>
  pnpm integrations grant --member ${show(memberFile)} --bot ${sidecar.publicKey} --integration github --access read > grant.txt
  pnpm integrations run github repos.list --grant @grant.txt --sidecar ${sidecar.address} --caller-token-file ${show(join(sidecarHome, "caller-token"))}

Ctrl-C stops both.`);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    await Promise.allSettled([broker.app.close(), sidecar.close()]);
    process.exit(0);
  });
}

// `pnpm start`: the broker (loopback TCP) and one sidecar (its Unix socket) on the embedded registry,
// with a development member key so the commands printed below work at once.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { generateMemberKeys, ready } from "@eleven-integrations/grants";
import { startServer, startupFailure } from "@eleven-integrations/broker";
import { startSidecar } from "@eleven-integrations/sidecar";

const root = new URL("..", import.meta.url).pathname;
const devHome = process.env.ELEVEN_DEV_HOME ?? join(root, ".eleven-dev");
const sidecarHome = process.env.SIDECAR_HOME ?? join(devHome, "sidecar");
const memberFile = join(devHome, "member.json");

await ready();
mkdirSync(sidecarHome, { recursive: true, mode: 0o700 });
if (!existsSync(memberFile)) {
  const keys = generateMemberKeys();
  writeFileSync(memberFile, `${JSON.stringify({ kind: "member", ...keys }, null, 2)}\n`, { mode: 0o600 });
  writeFileSync(join(sidecarHome, "trusted-members.json"), `${JSON.stringify([keys.publicKey])}\n`, { mode: 0o600 });
}
chmodSync(memberFile, 0o600);

let broker;
try {
  broker = await startServer({ ...process.env, HOST: "127.0.0.1", PORT: process.env.BROKER_PORT ?? "8080" });
} catch (error) {
  console.error(`the broker did not start: ${startupFailure(error)}`);
  process.exit(1);
}
// The sidecar listens on its Unix socket (<home>/sidecar.sock, 0600) unless SIDECAR_PORT asks for loopback TCP.
const sidecarPort = process.env.SIDECAR_PORT;
const sidecar = await startSidecar(
  sidecarPort === undefined || sidecarPort === "" ? { home: sidecarHome } : { home: sidecarHome, port: Number(sidecarPort) },
);

const show = (path) => relative(process.cwd(), path) || ".";
console.log(`
broker   ${broker.url}   catalog page ${broker.url}/  ·  GET ${broker.url}/registry
sidecar  ${sidecar.address}   bot public key ${sidecar.publicKey}
         files in ${show(sidecarHome)} (caller token, bot key, trusted members, audit.log)

Try it (in another terminal, from this folder):
  curl -s ${broker.url}/registry/github | head -c 400; echo
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

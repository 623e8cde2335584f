// The sidecar's bin (src/server.ts) as a child process, with one difference: its provider
// calls go to a loopback stand-in through the test dispatcher (SIDECAR_CHILD_CA,
// SIDECAR_CHILD_PROVIDER_PORT), which the production bin has no way to do. It starts the same
// start function and closes on signals through the same closeOnSignals, from the build.
import { createLoopbackDispatcher } from "@eleven-integrations/test-support";
import { closeOnSignals } from "../../dist/start/signals.js";
import { startSidecar } from "../../dist/start/start-server.js";

const env = process.env;
const sidecar = await startSidecar({
  home: env.SIDECAR_HOME,
  port: 0,
  metricsPort: 0,
  dispatcher: createLoopbackDispatcher(env.SIDECAR_CHILD_CA, { "api.github.com": Number(env.SIDECAR_CHILD_PROVIDER_PORT) }),
});
closeOnSignals(process, sidecar.close, (code) => process.exit(code));
process.send({
  port: sidecar.port,
  metricsPort: sidecar.metricsPort,
  callerTokenFile: sidecar.callerTokenFile,
  auditFile: sidecar.auditFile,
  publicKey: sidecar.publicKey,
});

#!/usr/bin/env node
// The `eleven-sidecar` command: reads its environment, starts on its Unix socket (or 127.0.0.1 given PORT), closes gracefully on SIGINT/SIGTERM.
import { closeOnSignals, optionsFromEnvironment } from "./server/server-environment.js";
import { SidecarStartError } from "./server/sidecar-error.js";
import { startSidecar } from "./server/server-start.js";

try {
  const sidecar = await startSidecar(optionsFromEnvironment(process.env));
  process.stderr.write(
    `eleven-sidecar listening on ${sidecar.address}\n` +
      `  bot public key: ${sidecar.publicKey}\n` +
      `  caller token:   ${sidecar.callerTokenFile}\n` +
      `  audit log:      ${sidecar.auditFile}\n` +
      `  shared state:   ${process.env.REDIS_URL === undefined || process.env.REDIS_URL === "" ? "this process and its journals (no REDIS_URL)" : "Redis (REDIS_URL)"}\n` +
      (process.env["SIDECAR_REGISTRY_URL"] ? `  following:      ${process.env["SIDECAR_REGISTRY_URL"]} (cache ${sidecar.registryCacheFile})\n` : ""),
  );
  closeOnSignals(process, sidecar.close, (code) => process.exit(code));
} catch (error) {
  const message = SidecarStartError.isInstance(error) || error instanceof Error ? error.message : String(error);
  process.stderr.write(`eleven-sidecar: ${message}\n`);
  process.exit(1);
}

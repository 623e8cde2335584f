import type { StartSidecarOptions } from "./server-start.js";
import { SidecarStartError } from "./sidecar-error.js";

/**
 * The `eleven-sidecar` command's settings from its environment: `SIDECAR_HOME`
 * (default `~/.eleven-sidecar`), `PORT` (default 8787) and `LOG_LEVEL` (pino's
 * levels, default `info`). The host is always 127.0.0.1.
 */
export function optionsFromEnvironment(environment: Record<string, string | undefined>): StartSidecarOptions {
  const options: StartSidecarOptions = { logger: { level: environment["LOG_LEVEL"] ?? "info" } };
  const home = environment["SIDECAR_HOME"];
  if (home !== undefined && home !== "") options.home = home;
  const port = environment["PORT"];
  if (port !== undefined && port !== "") {
    if (!/^[0-9]{1,5}$/.test(port)) throw new SidecarStartError("invalid_setting", `PORT must be a port number, not ${JSON.stringify(port)}`);
    options.port = Number(port);
  }
  return options;
}

/** What `closeOnSignals` needs of `process`. */
export interface SignalSource {
  on(signal: "SIGINT" | "SIGTERM", listener: () => void): unknown;
}

/**
 * On the first SIGINT or SIGTERM, closes gracefully (requests in flight finish,
 * new connections are refused) then exits 0, or 1 if closing failed; a second
 * signal exits 1 at once.
 */
export function closeOnSignals(source: SignalSource, close: () => Promise<void>, exit: (code: number) => void): void {
  let closing = false;
  const onSignal = () => {
    if (closing) {
      exit(1);
      return;
    }
    closing = true;
    close().then(
      () => exit(0),
      () => exit(1),
    );
  };
  source.on("SIGINT", onSignal);
  source.on("SIGTERM", onSignal);
}

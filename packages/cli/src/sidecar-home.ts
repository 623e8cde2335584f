// The protocol's light entry (file names and paths only): the command line names its defaults without loading undici or zod.
import { SIDECAR_HOME_FILES, sidecarHome } from "@eleven-integrations/sidecar-protocol/home";
import { join } from "node:path";

type Environment = Readonly<Record<string, string | undefined>>;

export { sidecarHome };

/**
 * The address used when none is given: `$ELEVEN_SIDECAR` (or the older
 * `$ELEVEN_SIDECAR_URL`), else the sidecar's default socket
 * `unix:$SIDECAR_HOME/sidecar.sock`. Never a TCP port unless one is asked for:
 * any local process can squat a port, only the sidecar's user can reach its socket.
 */
export function defaultSidecarAddress(env: Environment): string {
  for (const name of ["ELEVEN_SIDECAR", "ELEVEN_SIDECAR_URL"]) {
    const given = env[name];
    if (given !== undefined && given !== "") return given;
  }
  return `unix:${join(sidecarHome(env), SIDECAR_HOME_FILES.socket)}`;
}

/** The caller token file: `$SIDECAR_HOME/caller-token`. */
export function defaultCallerTokenFile(env: Environment): string {
  return join(sidecarHome(env), SIDECAR_HOME_FILES.callerToken);
}

import { homedir } from "node:os";
import { join } from "node:path";

type Environment = Readonly<Record<string, string | undefined>>;

/** The sidecar's home folder: `$SIDECAR_HOME`, else `~/.eleven-sidecar`. */
export function sidecarHome(env: Environment): string {
  const home = env["SIDECAR_HOME"];
  return home !== undefined && home !== "" ? home : join(homedir(), ".eleven-sidecar");
}

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
  return `unix:${join(sidecarHome(env), "sidecar.sock")}`;
}

/** The caller token file: `$SIDECAR_HOME/caller-token`. */
export function defaultCallerTokenFile(env: Environment): string {
  return join(sidecarHome(env), "caller-token");
}

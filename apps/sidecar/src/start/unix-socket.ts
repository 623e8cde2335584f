import type { Stats } from "node:fs";
import { chmod, lstat, unlink } from "node:fs/promises";
import { connect } from "node:net";
import { shareWithGroup } from "./key-files.js";
import { SidecarStartError } from "./start-error.js";

/** The socket a sidecar listens on by default: `<home>/sidecar.sock`. */
export const SOCKET_FILE_NAME = "sidecar.sock";

/** Longest socket path the kernel takes (`sun_path` is 108 bytes on Linux, 104 on macOS, with its NUL). */
const MAX_SOCKET_PATH_BYTES = 103;

function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ path });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * Makes `path` free for a new socket: nothing there is fine; a socket left by a
 * sidecar that crashed (nobody answers on it) is removed; a socket someone
 * answers on is another running sidecar (`in_use`); anything else, a symlink
 * included, is refused and left alone (`not_a_file`).
 */
export async function prepareSocketPath(path: string): Promise<void> {
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) {
    throw new SidecarStartError(
      "invalid_setting",
      `the socket path ${path} is longer than ${MAX_SOCKET_PATH_BYTES} bytes; choose a shorter SIDECAR_HOME or socket`,
    );
  }
  let stats: Stats;
  try {
    stats = await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  if (!stats.isSocket()) throw new SidecarStartError("not_a_file", `${path} exists and is not a socket; move it away`);
  if (await answers(path)) throw new SidecarStartError("in_use", `another process answers on ${path}; is a sidecar already running?`);
  await unlink(path);
}

/**
 * Only the sidecar's own user may connect: the socket becomes 0600 right after it is bound
 * (its folder is 0700 already). Given the callers' group, that group may connect too (0660).
 */
export async function restrictSocket(path: string, callerGroup?: number): Promise<void> {
  await chmod(path, 0o600);
  if (callerGroup !== undefined) await shareWithGroup(path, callerGroup, 0o660);
}

import { stat } from "node:fs/promises";
import { SidecarStartError } from "./start-error.js";

/**
 * Refuses a home folder that group or others can write to (they could replace
 * the key, token, journal or audit files, or plant symlinks in their place), or
 * that another user owns. Sticky world-writable folders such as /tmp are refused too.
 */
export async function checkHomeFolder(home: string): Promise<void> {
  const stats = await stat(home);
  if (!stats.isDirectory()) throw new SidecarStartError("invalid_setting", `the sidecar home ${home} is not a folder`);
  if ((stats.mode & 0o022) !== 0) {
    throw new SidecarStartError("insecure_home", `the sidecar home ${home} is writable by group or others; run chmod 700 ${home}`);
  }
  if (typeof process.getuid === "function" && stats.uid !== process.getuid()) {
    throw new SidecarStartError("insecure_home", `the sidecar home ${home} belongs to another user`);
  }
}

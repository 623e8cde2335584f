import { readFile } from "node:fs/promises";
import { SidecarStartError } from "./start-error.js";

const GROUP_NAME = /^[a-z_][a-z0-9_-]{0,31}\$?$/i;

/**
 * The gid of `SIDECAR_CALLER_GROUP`: a number as it is, a name looked up in /etc/group
 * (groups that only NSS knows, LDAP for one, must be given by number).
 */
export async function resolveCallerGroup(group: string, groupFile = "/etc/group"): Promise<number> {
  if (/^[0-9]{1,10}$/.test(group)) return Number(group);
  if (!GROUP_NAME.test(group)) throw new SidecarStartError("invalid_setting", "the caller group must be a group name or a gid");
  let text: string;
  try {
    text = await readFile(groupFile, "utf8");
  } catch {
    throw new SidecarStartError("invalid_setting", `cannot read ${groupFile} to find the caller group ${group}; give its gid`);
  }
  for (const line of text.split("\n")) {
    const [name, , gid] = line.split(":");
    if (name === group && gid !== undefined && /^[0-9]+$/.test(gid)) return Number(gid);
  }
  throw new SidecarStartError("invalid_setting", `no group ${group} in ${groupFile}`);
}

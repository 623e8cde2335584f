import { isAbsolute } from "node:path";
import { SidecarClientError } from "./sidecar-client-error.js";

/** Where a sidecar listens: its Unix socket, or a loopback http origin. */
export type SidecarTarget = { socketPath: string } | { url: string };

const LOOPBACK = new Set(["127.0.0.1", "[::1]", "localhost"]);

/**
 * Checks a target and returns it in its plain form (a socket path, or a URL's
 * origin). Only an absolute socket path or an http origin on loopback is taken:
 * the caller token and the grants go nowhere else.
 */
export function checkSidecarTarget(target: SidecarTarget): SidecarTarget {
  if ("socketPath" in target) {
    if (!isAbsolute(target.socketPath))
      throw new SidecarClientError("invalid_target", "the sidecar socket must be an absolute path, such as $SIDECAR_HOME/sidecar.sock");
    return { socketPath: target.socketPath };
  }
  let url: URL;
  try {
    url = new URL(target.url);
  } catch {
    throw new SidecarClientError("invalid_target", "the sidecar address must be a loopback http origin, such as http://127.0.0.1:8787");
  }
  if (
    url.protocol !== "http:" ||
    !LOOPBACK.has(url.hostname) ||
    url.username !== "" ||
    url.password !== "" ||
    (url.pathname !== "/" && url.pathname !== "") ||
    url.search !== "" ||
    url.hash !== ""
  ) {
    throw new SidecarClientError("invalid_target", "the sidecar address must be a loopback http origin, such as http://127.0.0.1:8787");
  }
  return { url: url.origin };
}

/**
 * Reads the command line's form of a target: `unix:/absolute/path` or
 * `http://127.0.0.1:P` (`[::1]` and `localhost` too).
 */
export function parseSidecarTarget(text: string): SidecarTarget {
  if (text.startsWith("unix:")) return checkSidecarTarget({ socketPath: text.slice("unix:".length) });
  return checkSidecarTarget({ url: text });
}

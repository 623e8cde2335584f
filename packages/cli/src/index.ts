export { main, USAGE } from "./main.js";
export { UsageError, type CommandIo } from "./io.js";
export {
  createSidecarClient,
  parseSidecarAddress,
  defaultSidecarAddress,
  sidecarHome,
  readCallerToken,
  SidecarClientError,
  type SidecarClient,
  type SidecarAddress,
  type SidecarResponse,
  type SidecarClientErrorCode,
} from "./sidecar-client.js";
export { readSecretArgument } from "./secret-input.js";
export { escapeText, escapeJson } from "./terminal-text.js";

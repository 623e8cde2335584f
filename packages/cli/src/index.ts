export { main, USAGE } from "./main.js";
export { UsageError, type CommandIo } from "./io.js";
export { connectSidecar } from "./sidecar-client.js";
export { defaultSidecarAddress, defaultCallerTokenFile, sidecarHome } from "./sidecar-home.js";
export { readSecretArgument } from "./secret-input.js";
export { escapeText, escapeJson } from "./terminal-text.js";

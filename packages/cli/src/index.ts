export { main, USAGE } from "./main.js";
export { UsageError, type CommandIo } from "./io.js";

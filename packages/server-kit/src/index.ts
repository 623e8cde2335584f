export { serverTimeoutOptions, type ServerTimeouts } from "./server-timeouts.js";
export { startTracing, tracingRequested, type RunningTracing, type TracingEnvironment } from "./tracing.js";

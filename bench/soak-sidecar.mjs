// One sidecar of the soak (bench/soak.mjs), in its own process so the soak can kill it and
// start it again: the real startSidecar on a fixed loopback port, its provider calls sent to
// the soak's loopback stand-in through the test dispatcher (the production bin has no way to
// point at a stand-in, and should not). SIGTERM closes it gracefully (runs in flight finish
// and write their audit lines), then exits 0.
import { createLoopbackDispatcher } from "@eleven-integrations/test-support";
import { startSidecar } from "@eleven-integrations/sidecar";

const env = process.env;
const dispatcher = createLoopbackDispatcher(env.SOAK_CA, { "api.github.com": Number(env.SOAK_PROVIDER_PORT) });
const running = await startSidecar({
  home: env.SOAK_HOME,
  port: Number(env.SOAK_PORT),
  metricsPort: 0,
  dispatcher,
  redisUrl: env.SOAK_REDIS_URL,
  // The soak makes hundreds of runs a minute on one grant: limits far above that, still counted on every run.
  rateLimits: { perGrant: { points: 1e9, durationSeconds: 60 }, perIntegration: { points: 1e9, durationSeconds: 60 } },
});
process.once("SIGTERM", () => {
  running.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
process.send({
  port: running.port,
  metricsPort: running.metricsPort,
  publicKey: running.publicKey,
  callerTokenFile: running.callerTokenFile,
  botKeyFile: running.botKeyFile,
  auditFile: running.auditFile,
});

import { z } from "zod";

/** The probes' paths: on the sidecar's main listener behind the caller token, and on its metrics listener without one. */
export const PROBE_PATHS = { health: "/healthz", ready: "/readyz" } as const;

/** `GET /healthz`: the process answers. */
export const healthAnswerSchema = z.strictObject({ status: z.literal("ok") });

/** `GET /readyz`: 200 `ready`, or 503 `not_ready` with each reason (`registry_not_loaded`, `redis_unreachable`, `registry_sync_stale`, `revocation_follow_stale`, `starting`). */
export const readyAnswerSchema = z.discriminatedUnion("status", [
  z.strictObject({ status: z.literal("ready") }),
  z.strictObject({ status: z.literal("not_ready"), reasons: z.array(z.string()).min(1) }),
]);

export type HealthAnswer = z.infer<typeof healthAnswerSchema>;
export type ReadyAnswer = z.infer<typeof readyAnswerSchema>;

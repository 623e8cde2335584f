import type { CompiledOperation } from "@eleven-integrations/loader";
import type { Deadline } from "./deadline.js";
import type { Envelope } from "./envelope.js";
import type { AttemptOutcome } from "./send-once.js";

/** Time left for the attempt itself after a wait: a wait that leaves less does not fit. */
export const RETRY_MARGIN_MS = 500;
const BACKOFF_BASE_MS = 200;

/**
 * Runs `attempt` once, and for a `GET` read again after a retryable outcome, at most
 * `retries` more times, waiting the server's `Retry-After` (or a short backoff) only
 * when that wait fits the deadline. Anything else is sent exactly once.
 */
export async function runWithRetries(
  operation: CompiledOperation,
  retries: number,
  deadline: Deadline,
  attempt: () => Promise<AttemptOutcome>,
): Promise<Envelope> {
  const mayRetry = operation.method === "GET" && operation.access === "read";
  for (let count = 0; ; count += 1) {
    const outcome = await attempt();
    if (!mayRetry || !outcome.retryable || count >= retries) return outcome.envelope;
    const waitMs = outcome.retryAfterMs ?? BACKOFF_BASE_MS * 2 ** count;
    if (waitMs + RETRY_MARGIN_MS > deadline.remaining()) return outcome.envelope;
    try {
      await deadline.sleep(waitMs);
    } catch {
      return outcome.envelope;
    }
  }
}

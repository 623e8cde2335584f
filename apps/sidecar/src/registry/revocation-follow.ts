import type { FastifyBaseLogger } from "fastify";
import { request, type Dispatcher } from "undici";
import { z } from "zod";
import { parseBody, revokeBodySchema } from "@eleven-integrations/sidecar-protocol";
import { revokeGrant, type RevokeDeps } from "../state/revoke.js";
import { MAX_REVOCATIONS_ANSWER_BYTES, REVOCATION_FETCH_TIMEOUT_MS } from "./revocation-follow-config.js";

/**
 * The broker's `GET /revocations?since=` answer (apps/broker/README.md, "Revocations"):
 * entries are checked one by one below, so one bad entry never hides the others.
 */
const revocationsAnswerSchema = z.object({
  revocations: z.array(z.unknown()),
  next: z.string().min(1).max(256),
});

/** Pages fetched in one tick at most (500 revocations each at the broker). */
const MAX_PAGES_PER_TICK = 100;

export interface RevocationFollowOptions {
  /** `<broker origin>/revocations`. */
  url: string;
  intervalMs: number;
  /** The registry sync's dispatcher. */
  dispatcher: Dispatcher;
  /** What `POST /v1/revoke` verifies and records with. */
  deps: RevokeDeps;
  log: FastifyBaseLogger;
}

export type RevocationFollowOutcome =
  | { status: "followed"; recorded: number; skipped: number; next: string }
  | { status: "failed"; reason: "unreachable" | "http_status" | "too_large" | "malformed" | "unavailable" };

/**
 * Follows the broker's revocation list: every `intervalMs` a `GET /revocations`
 * (with `since=<the last next>` after the first), each entry verified and recorded
 * exactly as `POST /v1/revoke` does. An entry that does not verify here (malformed,
 * another bot's, an untrusted member's) is skipped; a failed fetch or an unreachable
 * store is logged and retried at the next tick from the same cursor. Never throws.
 */
export class RevocationFollow {
  readonly #options: RevocationFollowOptions;
  #cursor: string | undefined;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  #running: Promise<RevocationFollowOutcome> | undefined;
  #lastSuccessAt: number | undefined;

  constructor(options: RevocationFollowOptions) {
    this.#options = options;
  }

  /** The `next` of the last page fully recorded; undefined before the first. */
  get cursor(): string | undefined {
    return this.#cursor;
  }

  /** When a tick last succeeded: every page it fetched read and recorded (ms since epoch); undefined before the first. Readiness reads it. */
  get lastSuccessAt(): number | undefined {
    return this.#lastSuccessAt;
  }

  followOnce(): Promise<RevocationFollowOutcome> {
    this.#running ??= this.#follow().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  /** Follows every `intervalMs` until `stop()`; the timer does not keep the process alive. */
  start(): void {
    if (this.#stopped || this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.followOnce().finally(() => this.start());
    }, this.#options.intervalMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running?.catch(() => undefined);
  }

  async #follow(): Promise<RevocationFollowOutcome> {
    let recorded = 0;
    let skipped = 0;
    // The broker answers a page at a time (500 at most): a sidecar that starts behind catches up in one tick.
    for (let pages = 0; pages < MAX_PAGES_PER_TICK; pages += 1) {
      const page = await this.#followPage();
      if (page.status === "failed") return page;
      recorded += page.recorded;
      skipped += page.skipped;
      if (page.recorded + page.skipped === 0) break;
    }
    this.#lastSuccessAt = Date.now();
    if (recorded > 0 || skipped > 0) this.#options.log.info(`revocations followed from ${this.#options.url}: ${recorded} recorded, ${skipped} skipped`);
    return { status: "followed", recorded, skipped, next: this.#cursor as string };
  }

  async #followPage(): Promise<RevocationFollowOutcome> {
    const { log } = this.#options;
    let answer: unknown;
    try {
      answer = await this.#fetch();
    } catch (error) {
      const reason = FollowFailure.isFailure(error) ? error.reason : "unreachable";
      log.warn(`revocations from ${this.#options.url} not followed (${reason}); retrying in ${this.#options.intervalMs} ms`);
      return { status: "failed", reason };
    }
    const page = revocationsAnswerSchema.safeParse(answer);
    if (!page.success) {
      log.warn(
        `revocations from ${this.#options.url} not followed (malformed): the answer is not { revocations: [...], next }; retrying in ${this.#options.intervalMs} ms`,
      );
      return { status: "failed", reason: "malformed" };
    }
    let recorded = 0;
    let skipped = 0;
    for (const entry of page.data.revocations) {
      const body = parseBody(revokeBodySchema, { revocation: entry });
      if (!body.ok) {
        skipped += 1;
        continue;
      }
      const answered = await revokeGrant(body.value, this.#options.deps, log);
      if (answered.status === "ok") {
        recorded += 1;
      } else if (answered.error.code === "unavailable") {
        // Not recorded: the cursor stays, so the whole page is fetched again next tick.
        log.warn(
          `revocations from ${this.#options.url} not recorded (unavailable): the shared state is unreachable; retrying in ${this.#options.intervalMs} ms`,
        );
        return { status: "failed", reason: "unavailable" };
      } else {
        // Another bot's grant, an untrusted member's, a bad signature: not ours to record.
        skipped += 1;
      }
    }
    this.#cursor = page.data.next;
    return { status: "followed", recorded, skipped, next: page.data.next };
  }

  async #fetch(): Promise<unknown> {
    const url = new URL(this.#options.url);
    if (this.#cursor !== undefined) url.searchParams.set("since", this.#cursor);
    let response: Dispatcher.ResponseData;
    try {
      response = await request(url, {
        method: "GET",
        dispatcher: this.#options.dispatcher,
        headers: { accept: "application/json" },
        signal: AbortSignal.timeout(REVOCATION_FETCH_TIMEOUT_MS),
      });
    } catch {
      throw new FollowFailure("unreachable");
    }
    const { statusCode, body } = response;
    if (statusCode !== 200) {
      body.resume();
      throw new FollowFailure("http_status");
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of body) {
        size += (chunk as Buffer).length;
        if (size > MAX_REVOCATIONS_ANSWER_BYTES) {
          body.destroy();
          throw new FollowFailure("too_large");
        }
        chunks.push(chunk as Buffer);
      }
    } catch (error) {
      if (FollowFailure.isFailure(error)) throw error;
      throw new FollowFailure("unreachable");
    }
    try {
      return JSON.parse(Buffer.concat(chunks, size).toString("utf8")) as unknown;
    } catch {
      throw new FollowFailure("malformed");
    }
  }
}

/** Internal: why one fetch failed (never leaves this module). */
class FollowFailure extends Error {
  constructor(readonly reason: "unreachable" | "http_status" | "too_large" | "malformed") {
    super(reason);
  }

  static isFailure(error: unknown): error is FollowFailure {
    return error instanceof FollowFailure;
  }
}

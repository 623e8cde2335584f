import type { Readable } from "node:stream";
import type { BudgetReader } from "./byte-budget.js";
import type { DeadlineSignal } from "./deadline.js";

export type ReadBodyResult = { readonly ok: true; readonly bytes: Buffer } | { readonly ok: false; readonly bytesRead: number };

/**
 * Reads a response body as it streams in, counting bytes, and destroys it (closing the
 * connection) as soon as it passes `limit`, so no more than `limit` bytes are ever held.
 * Every chunk is counted against the shared budget; while the budget says wait, the
 * stream is paused. Rejects with the stream's error (a timeout, an abort, a reset) or
 * the signal's reason.
 */
export function readBody(body: Readable, limit: number, budget: BudgetReader, signal: DeadlineSignal): Promise<ReadBodyResult> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let waiting = false;
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      body.off("data", onData);
      body.off("end", onEnd);
      body.off("error", onError);
      body.on("error", ignore);
      outcome();
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) {
        chunks.length = 0;
        return finish(() => {
          body.destroy();
          resolve({ ok: false, bytesRead: total });
        });
      }
      chunks.push(chunk);
      if (!budget.add(chunk.length) && !waiting) {
        waiting = true;
        body.pause();
        budget.wait(signal).then(
          () => {
            waiting = false;
            if (!settled) body.resume();
          },
          (error: unknown) =>
            finish(() => {
              body.destroy();
              reject(error);
            }),
        );
      }
    };
    const onEnd = () => finish(() => resolve({ ok: true, bytes: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total) }));
    const onError = (error: Error) => finish(() => reject(error));
    body.on("data", onData);
    body.once("end", onEnd);
    body.once("error", onError);
  });
}

function ignore(): void {}

/** A response body that can hand over all its bytes at once (undici's `BodyReadable`). */
export type WholeBody = Readable & { bytes(): Promise<Uint8Array> };

export function readsWhole(body: Readable): body is WholeBody {
  return typeof (body as Partial<WholeBody>).bytes === "function";
}

/**
 * Reads a body whose length the answer announced (`content-length`, at most the limit):
 * its bytes are counted against the shared budget before they arrive, waiting first while
 * the budget says wait, then taken in one piece. undici holds a body to its announced
 * length, so no more is ever held; the pieces skip the stream's own buffering and events.
 */
export async function readAnnouncedBody(body: WholeBody, length: number, budget: BudgetReader, signal: DeadlineSignal): Promise<ReadBodyResult> {
  try {
    if (!budget.add(length)) await budget.wait(signal);
  } catch (error) {
    body.on("error", ignore).destroy();
    throw error;
  }
  const bytes = await body.bytes();
  if (bytes.byteLength > length) return { ok: false, bytesRead: bytes.byteLength };
  return { ok: true, bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
}

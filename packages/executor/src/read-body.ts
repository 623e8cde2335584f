import type { Readable } from "node:stream";

export type ReadBodyResult = { readonly ok: true; readonly bytes: Buffer } | { readonly ok: false; readonly bytesRead: number };

/**
 * Reads a response body as it streams in, counting bytes, and destroys it (closing the
 * connection) as soon as it passes `limit`, so no more than `limit` bytes are ever held.
 * Rejects with the stream's error (a timeout, an abort, a reset).
 */
export function readBody(body: Readable, limit: number): Promise<ReadBodyResult> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) {
        cleanup();
        chunks.length = 0;
        body.on("error", ignore).destroy();
        resolve({ ok: false, bytesRead: total });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve({ ok: true, bytes: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total) });
    };
    const onError = (error: Error) => {
      cleanup();
      body.on("error", ignore);
      reject(error);
    };
    const cleanup = () => {
      body.off("data", onData);
      body.off("end", onEnd);
      body.off("error", onError);
    };
    body.on("data", onData);
    body.once("end", onEnd);
    body.once("error", onError);
  });
}

function ignore(): void {}

// Captures what fastify's logger writes, so tests can grep it for secrets.
import { Writable } from "node:stream";

export interface LogCapture {
  /** A pino destination: every line written lands in `lines`. */
  stream: Writable;
  lines: string[];
}

export function captureLogs(): LogCapture {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      lines.push(chunk.toString());
      callback();
    },
  });
  return { stream, lines };
}

/** The needles of `secrets` found anywhere in `texts`. */
export function leakedSecrets(texts: readonly string[], secrets: readonly string[]): string[] {
  const all = texts.join("\n");
  return secrets.filter((secret) => all.includes(secret));
}

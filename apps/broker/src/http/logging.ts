import { createWriteStream } from "node:fs";
import type { FastifyServerOptions } from "fastify";

/** fastify's `logger` option, as `buildApp` takes it. */
export type BrokerLoggerOption = NonNullable<FastifyServerOptions["logger"]>;
type LoggerObject = Exclude<BrokerLoggerOption, boolean>;
type Serializers = NonNullable<LoggerObject["serializers"]>;

/** Shorter values are not scrubbed: they would blank out ordinary words. */
const MIN_SCRUBBED_LENGTH = 8;
const REDACTED = "[redacted]";

/**
 * The request as logged: method, path and address. The query string is never
 * logged (on `/connect/*` it carries codes and state), nor any header or body.
 */
export function serializeRequest(request: { method: string; url: string; ip?: string }): { method: string; url: string; remoteAddress?: string } {
  const url = pathOnly(request.url);
  return request.ip === undefined ? { method: request.method, url } : { method: request.method, url, remoteAddress: request.ip };
}

/** A URL's path without its query; `?…` marks that one was dropped. */
export function pathOnly(url: string): string {
  const query = url.indexOf("?");
  return query === -1 ? url : `${url.slice(0, query)}?…`;
}

const serializers: Serializers = {
  req: serializeRequest,
  res: (reply) => ({ statusCode: reply.statusCode }),
  err: (error) => {
    const serialized: { type: string; message: string; stack: string; code?: string; statusCode?: number } = {
      type: error.name,
      message: error.message,
      stack: error.stack ?? "",
    };
    if (typeof error.code === "string") serialized.code = error.code;
    if (typeof error.statusCode === "number") serialized.statusCode = error.statusCode;
    // An error's `cause` (oauth4webapi puts response bodies there) is never serialized.
    return serialized;
  },
};

/** Replaces every occurrence of a known secret (and its JSON-escaped spelling) in one log line. */
export function createScrubber(secrets: readonly string[]): (line: string) => string {
  const needles = [...new Set(secrets.filter((secret) => secret.length >= MIN_SCRUBBED_LENGTH))]
    .flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)])
    .filter((needle, index, all) => all.indexOf(needle) === index)
    .sort((a, b) => b.length - a.length);
  if (needles.length === 0) return (line) => line;
  return (line) => {
    let scrubbed = line;
    for (const needle of needles) if (scrubbed.includes(needle)) scrubbed = scrubbed.split(needle).join(REDACTED);
    return scrubbed;
  };
}

/**
 * The fastify `logger` option with the broker's serializers, and every line
 * passed through a scrubber of the configured secrets (client secrets, state keys)
 * before it reaches the destination: the user's `stream` or `file`, else stdout.
 */
export function brokerLoggerOptions(option: BrokerLoggerOption | undefined, secrets: readonly string[]): BrokerLoggerOption {
  if (option === undefined || option === false) return false;
  const base: LoggerObject = option === true ? {} : option;
  // A pino transport owns its destination: the serializers still apply, the line scrubber cannot.
  if ("transport" in base && base.transport !== undefined) return { ...base, serializers: { ...base.serializers, ...serializers } };
  const scrub = createScrubber(secrets);
  const { file, stream, ...rest } = base;
  const destination: { write(line: string): void } = stream ?? (file === undefined ? process.stdout : createWriteStream(file, { flags: "a" }));
  return {
    ...rest,
    serializers: { ...base.serializers, ...serializers },
    stream: { write: (line: string) => destination.write(scrub(line)) },
  };
}

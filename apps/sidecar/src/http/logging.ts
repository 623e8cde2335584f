import { createWriteStream } from "node:fs";
import type { SidecarLoggerOption } from "../config/config.js";

type LoggerObject = Exclude<SidecarLoggerOption, boolean>;
type Serializers = NonNullable<LoggerObject["serializers"]>;

const REDACTED = "[redacted]";

/** A URL's path; the query, never used by the sidecar's routes, is not logged. */
export function pathOnly(url: string): string {
  const query = url.indexOf("?");
  return query === -1 ? url : `${url.slice(0, query)}?…`;
}

/**
 * What a request, a reply and an error look like in the log: method, path and
 * address; the status; an error's type, code and status. Never a header (the
 * caller token travels in one), a body (grants, confirmations and args do), or
 * an error message, which for a parse error could quote the body.
 */
export const sidecarSerializers: Serializers = {
  req: (request: { method: string; url: string; ip?: string }) =>
    request.ip === undefined
      ? { method: request.method, url: pathOnly(request.url) }
      : { method: request.method, url: pathOnly(request.url), remoteAddress: request.ip },
  res: (reply: { statusCode: number }) => ({ statusCode: reply.statusCode }),
  err: (error: { name: string; stack?: string; code?: unknown; statusCode?: unknown }) => {
    // The stack's frames tell where; its first line repeats the message, which is left out.
    const frames = (error.stack ?? "")
      .split("\n")
      .filter((line) => line.trimStart().startsWith("at "))
      .join("\n");
    const serialized: { type: string; message: string; stack: string; code?: string; statusCode?: number } = {
      type: error.name,
      message: "(not logged)",
      stack: frames,
    };
    if (typeof error.code === "string") serialized.code = error.code;
    if (typeof error.statusCode === "number") serialized.statusCode = error.statusCode;
    return serialized;
  },
};

/**
 * The fastify `logger` option with the sidecar's serializers forced over the
 * caller's, and every line scrubbed of the given secrets (the caller token)
 * before it reaches the caller's `stream` or `file`, else stdout, as a second line of defence.
 */
export function sidecarLoggerOptions(option: SidecarLoggerOption | undefined, secrets: readonly string[]): SidecarLoggerOption {
  if (option === undefined || option === false) return false;
  const base: LoggerObject = option === true ? {} : option;
  const needles = secrets.filter((secret) => secret.length > 0);
  const { stream, file, ...rest } = base;
  const destination: { write(line: string): unknown } = stream ?? (file === undefined ? process.stdout : createWriteStream(file, { flags: "a", mode: 0o600 }));
  const scrub = (line: string): string => {
    let scrubbed = line;
    for (const needle of needles) if (scrubbed.includes(needle)) scrubbed = scrubbed.split(needle).join(REDACTED);
    return scrubbed;
  };
  return { ...rest, serializers: { ...base.serializers, ...sidecarSerializers }, stream: { write: (line: string) => destination.write(scrub(line)) } };
}

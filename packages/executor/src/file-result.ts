import { createHash } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

/** What a run that answers a file (`result: "file"`) returns as its data: never the bytes. */
export interface FileResult {
  readonly name: string;
  readonly size: number;
  readonly content_type: string;
  /** Lowercase hex SHA-256 of the bytes: how a later run names the file (`{ sha256 }`). */
  readonly sha256: string;
}

/** The bytes of a file answer, beside its envelope and never in it: only the process that ran it (the sidecar) reads them. */
const fileBytes = new WeakMap<object, Buffer>();

/** The bytes of the file an envelope answered with, or undefined for any other envelope. */
export function fileBytesOf(envelope: object): Buffer | undefined {
  return fileBytes.get(envelope);
}

export function attachFileBytes<T extends object>(envelope: T, bytes: Buffer): T {
  fileBytes.set(envelope, bytes);
  return envelope;
}

const MEDIA_TYPE = /^[a-z0-9!#$&^_.+-]{1,64}\/[a-z0-9!#$&^_.+-]{1,64}$/;
/** A file name shown and stored as a label: visible characters, no path separators, at most 255. */
const UNSAFE_NAME = /[\u0000-\u001f\u007f-\u009f/\\]/g;

/** The metadata of a downloaded file: its type from Content-Type, its name from Content-Disposition or the request path. */
export function fileResult(bytes: Buffer, headers: IncomingHttpHeaders, requestPath: string): FileResult {
  const type = single(headers["content-type"])?.split(";", 1)[0]?.trim().toLowerCase();
  return {
    name: nameFrom(single(headers["content-disposition"]), requestPath),
    size: bytes.length,
    content_type: type !== undefined && MEDIA_TYPE.test(type) ? type : "application/octet-stream",
    sha256: createHash("sha256").update(bytes).digest("hex"),
  };
}

function nameFrom(disposition: string | undefined, requestPath: string): string {
  const fromHeader = disposition === undefined ? undefined : dispositionName(disposition);
  const path = requestPath.split("?", 1)[0] as string;
  let last = path.slice(path.lastIndexOf("/") + 1);
  try {
    last = decodeURIComponent(last);
  } catch {
    // Kept as written.
  }
  const name = cleanName(fromHeader ?? "") || cleanName(last) || "download";
  return name;
}

/** `filename*=UTF-8''…` (RFC 6266/5987) first, else `filename="…"`. */
function dispositionName(disposition: string): string | undefined {
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition);
  if (extended !== null) {
    try {
      return decodeURIComponent((extended[1] as string).trim());
    } catch {
      // Falls back to the plain name.
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(disposition);
  if (plain === null) return undefined;
  return plain[1] !== undefined ? plain[1].replace(/\\(.)/g, "$1") : plain[2];
}

function cleanName(name: string): string {
  const cleaned = name.replace(UNSAFE_NAME, "_").trim();
  if (cleaned === "." || cleaned === "..") return "";
  return [...cleaned].slice(0, 255).join("");
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

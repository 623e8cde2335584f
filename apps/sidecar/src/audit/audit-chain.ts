import { readdirSync } from "node:fs";
import { basename, dirname } from "node:path";
import { readFileTail } from "./file-tail.js";
import { sha256Text } from "./sha256.js";

/** `prev` of the very first line of a journal: nothing came before it. */
export const GENESIS_PREV = "0".repeat(64);

/** Bytes read from the end of a file to find its last line; an audit line is a few hundred bytes. */
const TAIL_BYTES = 64 * 1024;

/** The chain link of one line: hex SHA-256 of its UTF-8 bytes, without the line feed. */
export function lineHash(line: string | Buffer): string {
  return sha256Text(line, "hex");
}

/**
 * The name a full audit file is renamed to: `<file>.<UTC time>` (`audit.log.20261202T033245123Z`),
 * sortable, so the newest rotated file is the last one by name. `taken` says whether a name is in use.
 */
export function rotatedName(path: string, now: Date, taken: (candidate: string) => boolean): string {
  const stamp = now.toISOString().replace(/[-:.]/g, "");
  let candidate = `${path}.${stamp}`;
  for (let n = 1; taken(candidate); n += 1) candidate = `${path}.${stamp}-${n}`;
  return candidate;
}

/** The hash of the last complete line of `path` (its last line feed ends it), or undefined when it has none or does not exist. */
export function lastLineHash(path: string): string | undefined {
  const tail = readFileTail(path, TAIL_BYTES);
  if (tail === undefined) return undefined;
  const { bytes, cut } = tail;
  const end = bytes.lastIndexOf(0x0a, bytes.length - 1);
  if (end < 0) return undefined;
  const start = bytes.lastIndexOf(0x0a, end - 1) + 1;
  if (start === 0 && cut) throw new Error(`the last line of ${path} is longer than ${TAIL_BYTES} bytes`);
  return end === start ? undefined : lineHash(bytes.subarray(start, end));
}

/** The files `path` rotated to (`<file>.<UTC time>`), oldest first. */
export function rotatedFiles(path: string): string[] {
  const prefix = `${basename(path)}.`;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return [];
  }
  const stamps = names
    .filter((name) => name.startsWith(prefix))
    .map((name) => name.slice(prefix.length))
    .filter((stamp) => /^\d{8}T\d{9}Z(-\d+)?$/.test(stamp));
  stamps.sort(compareRotated);
  return stamps.map((stamp) => `${path}.${stamp}`);
}

/** The newest file `path` rotated to (`<file>.<UTC time>`), or undefined. */
export function newestRotated(path: string): string | undefined {
  return rotatedFiles(path).at(-1);
}

/** Orders `<stamp>`, `<stamp>-1`, `<stamp>-2`, … `<stamp>-10` as written. */
function compareRotated(a: string, b: string): number {
  const [stampA = "", nA = "0"] = a.split("-");
  const [stampB = "", nB = "0"] = b.split("-");
  return stampA === stampB ? Number(nA) - Number(nB) : stampA < stampB ? -1 : 1;
}

/** The `prev` the next line of `path` takes: its last line's hash, else the last line of the file it rotated from, else 64 zeros. */
export function chainHead(path: string): string {
  const own = lastLineHash(path);
  if (own !== undefined) return own;
  const rotated = newestRotated(path);
  return (rotated === undefined ? undefined : lastLineHash(rotated)) ?? GENESIS_PREV;
}

import { readFileSync } from "node:fs";
import { lineHash, rotatedFiles } from "./audit-chain.js";
import { readFileTail } from "./file-tail.js";

const HEX_HASH = /^[0-9a-f]{64}$/;
/** Bytes read from the end of the file to find a torn last line; an audit line is a few hundred bytes. */
const TAIL_BYTES = 64 * 1024;

/** The `prev` of a chained line (a JSON object with a hex `prev`), or undefined for anything else (a torn fragment). */
export function prevOf(line: string | Buffer): string | undefined {
  try {
    const value = JSON.parse(typeof line === "string" ? line : line.toString("utf8")) as unknown;
    if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
    const prev = (value as { prev?: unknown }).prev;
    return typeof prev === "string" && HEX_HASH.test(prev) ? prev : undefined;
  } catch {
    return undefined;
  }
}

/** The bytes after the file's last line feed (a line a crash cut short), or undefined when it ends with one, is empty or is absent. */
export function tornTail(path: string): Buffer | undefined {
  const tail = readFileTail(path, TAIL_BYTES);
  if (tail === undefined) return undefined;
  const { bytes, cut } = tail;
  if (bytes.length === 0 || bytes[bytes.length - 1] === 0x0a) return undefined;
  const start = bytes.lastIndexOf(0x0a, bytes.length - 1) + 1;
  if (start === 0 && cut) throw new Error(`the last line of ${path} is longer than ${TAIL_BYTES} bytes`);
  return Buffer.from(bytes.subarray(start));
}

/** The hashes of the chained lines of one file, in order (torn fragments left out); none when it does not exist. */
export function chainedHashes(path: string): { hash: string; prev: string }[] {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const out: { hash: string; prev: string }[] = [];
  let start = 0;
  for (let end = bytes.indexOf(0x0a); end >= 0; end = bytes.indexOf(0x0a, start)) {
    const line = bytes.subarray(start, end);
    start = end + 1;
    const prev = prevOf(line);
    if (prev !== undefined) out.push({ hash: lineHash(line), prev });
  }
  return out;
}

/** How many chained lines the journal holds: its rotated files that are still there, then the live file. */
export function countChainedLines(path: string): number {
  let count = 0;
  for (const file of [...rotatedFiles(path), path]) count += chainedHashes(file).length;
  return count;
}

/**
 * How many chained lines of the live file `path` come after the line hashing to `head`,
 * or undefined when `head` names no line of it and is not what its first line follows
 * (lines were removed or changed since a checkpoint recorded `head`).
 */
export function linesAfter(path: string, head: string): number | undefined {
  const chain = chainedHashes(path);
  const index = chain.findIndex((line) => line.hash === head);
  if (index >= 0) return chain.length - 1 - index;
  // A checkpoint taken at the end of the file the live one rotated from.
  if (chain.length > 0 && chain[0]?.prev === head) return chain.length;
  return undefined;
}

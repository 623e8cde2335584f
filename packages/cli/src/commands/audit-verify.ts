import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { UsageError, type CommandIo } from "../io.js";
import { escapeText } from "../terminal-text.js";

/** `prev` of a journal's very first line. */
const GENESIS_PREV = "0".repeat(64);
const HEX_HASH = /^[0-9a-f]{64}$/;

/** A line's place, for the messages: `audit.log:12`. */
interface Place {
  file: string;
  line: number;
}

const where = (place: Place) => `${place.file}:${place.line}`;

/** The hex SHA-256 of a line's bytes without its line feed: what the next line's `prev` holds. */
function lineHash(line: Buffer): string {
  return createHash("sha256").update(line).digest("hex");
}

/** A file's lines as bytes; a last line without a line feed is read too (it was cut short, and must chain like any other). */
function splitLines(bytes: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let end = bytes.indexOf(0x0a); end >= 0; end = bytes.indexOf(0x0a, start)) {
    lines.push(bytes.subarray(start, end));
    start = end + 1;
  }
  if (start < bytes.length) lines.push(bytes.subarray(start));
  return lines;
}

function prevOf(line: Buffer): string | undefined {
  try {
    const value = JSON.parse(line.toString("utf8")) as unknown;
    if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
    const prev = (value as { prev?: unknown }).prev;
    return typeof prev === "string" && HEX_HASH.test(prev) ? prev : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `integrations audit verify <file...> [--head <hash>]`: walks the hash chain of a
 * sidecar's audit files, given oldest first (rotated files, then the live one).
 * Every line's `prev` must be the SHA-256 of the line before it; the first line of
 * the first file may name any earlier line (64 zeros when the journal starts there).
 * Prints the head hash (of the last line) and exits 0, or exits 1 naming the first
 * line where the chain breaks. A changed last line is caught only against a head
 * recorded before (`--head`).
 */
export async function auditVerify(files: readonly string[], head: string | undefined, io: CommandIo): Promise<number> {
  if (files.length === 0) throw new UsageError("audit verify takes the audit files, oldest first");
  if (head !== undefined && !HEX_HASH.test(head)) throw new UsageError("--head takes a hex SHA-256 (64 lowercase hex digits)");
  const journal: { place: Place; line: Buffer; hash: string }[] = [];
  for (const file of files) {
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch (error) {
      throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? "error"}`);
    }
    for (const [index, line] of splitLines(bytes).entries()) journal.push({ place: { file: escapeText(file), line: index + 1 }, line, hash: lineHash(line) });
  }
  // Where each line's hash is, so a line naming one elsewhere is told as moved rather than changed.
  const byHash = new Map(journal.map((entry) => [entry.hash, entry.place]));
  let expected: string | undefined;
  let previous: Place | undefined;
  let count = 0;
  for (const { place, hash, line } of journal) {
    const prev = prevOf(line);
    if (prev === undefined) return fail(io, `${where(place)}: not a chained audit line (no JSON object with a hex prev): changed, or cut short`);
    if (expected !== undefined && prev !== expected) {
      const moved = byHash.get(prev);
      if (moved !== undefined) {
        return fail(
          io,
          `${where(place)}: the chain breaks here: this line follows ${where(moved)}, not ${where(previous as Place)}: lines were reordered or removed`,
        );
      }
      return fail(
        io,
        `${where(place)}: the chain breaks here: ${where(previous as Place)} was changed, or a line was removed between ${where(previous as Place)} and this one`,
      );
    }
    expected = hash;
    previous = place;
    count += 1;
  }
  if (expected === undefined) return fail(io, "no audit lines to verify");
  if (head !== undefined && expected !== head) {
    return fail(
      io,
      `the head is ${expected}, not the recorded ${head}: ${where(previous as Place)} was changed, or lines were added or removed after the recorded head`,
    );
  }
  const firstPrev = prevOf((journal[0] as { line: Buffer }).line);
  const start = firstPrev === GENESIS_PREV ? "from the journal's start" : `continuing from an earlier line ${firstPrev}`;
  io.stdout(`${expected}\n`);
  io.stderr(`${count} line${count === 1 ? "" : "s"} chained, ${start}; the line above is the head hash\n`);
  return 0;
}

function fail(io: CommandIo, message: string): number {
  io.stderr(`integrations audit verify: ${message}\n`);
  return 1;
}

import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { GrantError, ready, verifyAuditCheckpoint, type AuditCheckpoint } from "@eleven-integrations/grants";
import { UsageError, type CommandIo } from "../io.js";
import { escapeText } from "../terminal-text.js";

/** `prev` of a journal's very first line. */
const GENESIS_PREV = "0".repeat(64);
const HEX_HASH = /^[0-9a-f]{64}$/;
const KEY = /^[A-Za-z0-9_-]{43}$/;

/** A line's place, for the messages: `audit.log:12`. */
interface Place {
  file: string;
  line: number;
}

const where = (place: Place) => `${place.file}:${place.line}`;

export interface AuditVerifyOptions {
  /** The checkpoint file, `none`, or undefined for `audit.checkpoints` beside the last file when it exists. */
  checkpoints?: string | undefined;
  /** The public key every checkpoint must be signed with (the sidecar's `receipt_key`). */
  key?: string | undefined;
}

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

function jsonObject(line: Buffer): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(line.toString("utf8")) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function prevOf(line: Buffer): string | undefined {
  const prev = jsonObject(line)?.["prev"];
  return typeof prev === "string" && HEX_HASH.test(prev) ? prev : undefined;
}

/** The repair line the sidecar writes after a line a crash cut short: it names the torn line's length and hash. */
function repairs(repair: Buffer | undefined, torn: Buffer): boolean {
  if (repair === undefined) return false;
  const record = jsonObject(repair);
  return record?.["kind"] === "repair" && record["torn_bytes"] === torn.length && record["torn_sha256"] === lineHash(torn);
}

/** Where the sidecar keeps the checkpoints of `file`: `audit.log` (or a rotated `audit.log.<time>`) → `audit.checkpoints` beside it. */
function checkpointFileFor(file: string): string {
  return join(dirname(file), `${basename(file).replace(/\.log(\..*)?$/, "")}.checkpoints`);
}

interface ChainedLine {
  place: Place;
  hash: string;
}

/**
 * `integrations audit verify <file...> [--head <hash>] [--checkpoints <file>|none] [--key <key>]`:
 * walks the hash chain of a sidecar's audit files, given oldest first (rotated files, then
 * the live one). Every line's `prev` must be the SHA-256 of the line before it; the first
 * line of the first file may name any earlier line (64 zeros when the journal starts
 * there). A line a crash cut short is accepted only right before the sidecar's repair line
 * naming its length and hash. The journal is then held to the sidecar's signed checkpoints
 * (line count and head hash, each signed with its receipt key): every checkpoint that falls
 * in these files must name the line at its place, and none may lie beyond their end (lines
 * removed from the end; a middle rewritten with later hashes recomputed). `--head` is a head
 * recorded before: it must be a line of the files, which may have grown since. Prints the
 * head hash and exits 0, or exits 1 naming the first problem.
 */
export async function auditVerify(files: readonly string[], head: string | undefined, io: CommandIo, options: AuditVerifyOptions = {}): Promise<number> {
  if (files.length === 0) throw new UsageError("audit verify takes the audit files, oldest first");
  if (head !== undefined && !HEX_HASH.test(head)) throw new UsageError("--head takes a hex SHA-256 (64 lowercase hex digits)");
  if (options.key !== undefined && !KEY.test(options.key))
    throw new UsageError("--key takes an Ed25519 public key in unpadded base64url (the sidecar's receipt_key)");
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
  const chain: ChainedLine[] = [];
  let expected: string | undefined;
  let previous: Place | undefined;
  let firstPrev: string | undefined;
  let repaired = 0;
  for (const [index, { place, hash, line }] of journal.entries()) {
    const prev = prevOf(line);
    if (prev === undefined) {
      // A line a crash cut short: its bytes stay, and the repair line after it (chained to the line before it) names them.
      if (repairs(journal[index + 1]?.line, line)) {
        repaired += 1;
        continue;
      }
      return fail(io, `${where(place)}: not a chained audit line (no JSON object with a hex prev): changed, or cut short`);
    }
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
    firstPrev ??= prev;
    expected = hash;
    previous = place;
    chain.push({ place, hash });
  }
  if (expected === undefined) return fail(io, "no audit lines to verify");
  const count = chain.length;
  const position = new Map(chain.map((entry, index) => [entry.hash, index]));
  if (head !== undefined) {
    const at = position.get(head);
    if (at === undefined) {
      return fail(
        io,
        `the head is ${expected}, not the recorded ${head}, which is no line of these files: a line up to it was changed or removed, or the files do not reach it`,
      );
    }
    if (at < count - 1)
      io.stderr(`the recorded head is ${where(chain[at]?.place as Place)}; ${count - 1 - at} line${count - 1 - at === 1 ? "" : "s"} came after it\n`);
  }
  const checked = await checkCheckpoints(files, chain, position, firstPrev === GENESIS_PREV, options, io);
  if (checked !== 0) return checked;
  const start = firstPrev === GENESIS_PREV ? "from the journal's start" : `continuing from an earlier line ${firstPrev}`;
  const torn = repaired === 0 ? "" : `, ${repaired} line${repaired === 1 ? "" : "s"} cut short by a crash and repaired`;
  io.stdout(`${expected}\n`);
  io.stderr(`${count} line${count === 1 ? "" : "s"} chained, ${start}${torn}; the line above is the head hash\n`);
  return 0;
}

/** Holds the chain to the signed checkpoints; 0 when it matches them (or there are none to hold it to), else 1 after saying where. */
async function checkCheckpoints(
  files: readonly string[],
  chain: readonly ChainedLine[],
  position: ReadonlyMap<string, number>,
  fromGenesis: boolean,
  options: AuditVerifyOptions,
  io: CommandIo,
): Promise<number> {
  if (options.checkpoints === "none") return 0;
  const path = options.checkpoints ?? checkpointFileFor(files[files.length - 1] as string);
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    if (options.checkpoints !== undefined) throw new UsageError(`cannot read the checkpoints ${options.checkpoints}: ${code}`);
    io.stderr(`no checkpoints beside the journal (${escapeText(path)}): lines removed from its end are caught only against a recorded head (--head)\n`);
    return 0;
  }
  await ready();
  const shown = escapeText(path);
  const lines = splitLines(bytes);
  // A checkpoint cut short by a crash (the file's last line, with no line feed) is no statement.
  if (bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a) lines.pop();
  const checkpoints: { checkpoint: AuditCheckpoint; place: Place }[] = [];
  for (const [index, line] of lines.entries()) {
    const place = { file: shown, line: index + 1 };
    if (line.length === 0) continue;
    try {
      checkpoints.push({ checkpoint: verifyAuditCheckpoint(line.toString("utf8"), { key: options.key }), place });
    } catch (error) {
      if (!GrantError.isInstance(error)) throw error;
      const why =
        error.code === "bad_signature"
          ? "its signature does not verify: it was changed after it was signed"
          : error.code === "mismatch"
            ? "it was signed by another key than --key"
            : `not a checkpoint (${error.message})`;
      return fail(io, `${where(place)}: ${why}`);
    }
  }
  if (checkpoints.length === 0) {
    io.stderr(`no checkpoints in ${shown}: lines removed from the journal's end are caught only against a recorded head (--head)\n`);
    return 0;
  }
  for (let index = 1; index < checkpoints.length; index += 1) {
    const { checkpoint, place } = checkpoints[index] as (typeof checkpoints)[number];
    const before = checkpoints[index - 1] as (typeof checkpoints)[number];
    if (checkpoint.lines < before.checkpoint.lines) {
      return fail(
        io,
        `${where(place)}: a checkpoint of ${checkpoint.lines} lines after one of ${before.checkpoint.lines} (${where(before.place)}, ${before.checkpoint.time}): the journal lost lines and the sidecar started again`,
      );
    }
  }
  // How many chained lines came before the first of these files: from the journal's start, or placed by a checkpoint naming one of their lines.
  let offset: number | undefined = fromGenesis ? 0 : undefined;
  if (offset === undefined) {
    for (const { checkpoint } of checkpoints) {
      const at = position.get(checkpoint.head);
      if (at !== undefined) {
        offset = checkpoint.lines - 1 - at;
        break;
      }
    }
  }
  if (offset === undefined) {
    return fail(io, `none of the ${checkpoints.length} checkpoints in ${shown} names a line of these files: give the files they cover (or --checkpoints none)`);
  }
  const total = offset + chain.length;
  for (const { checkpoint, place } of checkpoints) {
    const at = checkpoint.lines - 1 - offset;
    if (at < 0) continue;
    const line = chain[at];
    if (line === undefined) {
      return fail(
        io,
        `the journal holds ${total} lines, but the checkpoint ${where(place)} (${checkpoint.time}) recorded ${checkpoint.lines}, head ${checkpoint.head}: lines were removed from its end`,
      );
    }
    if (line.hash !== checkpoint.head) {
      return fail(
        io,
        `${where(line.place)}: the checkpoint ${where(place)} (${checkpoint.time}) recorded line ${checkpoint.lines} as ${checkpoint.head}: this line or one before it was changed, or lines were removed, and the later hashes recomputed`,
      );
    }
  }
  const last = checkpoints[checkpoints.length - 1] as (typeof checkpoints)[number];
  const keys = [...new Set(checkpoints.map(({ checkpoint }) => checkpoint.key))];
  io.stderr(
    `${checkpoints.length} signed checkpoint${checkpoints.length === 1 ? "" : "s"} match, the last (${last.checkpoint.time}) at line ${last.checkpoint.lines} of ${total}; signed by ${keys.join(", ")}${options.key === undefined ? " (compare with the sidecar's receipt_key, or pass --key)" : ""}\n`,
  );
  return 0;
}

function fail(io: CommandIo, message: string): number {
  io.stderr(`integrations audit verify: ${message}\n`);
  return 1;
}

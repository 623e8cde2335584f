import { createHash, type Hash } from "node:crypto";

/** Entries between two saved hash states: a reload re-hashes at most this many unchanged manifests before the first change. */
export const CHECKPOINT_EVERY = 16;

export interface HashedEntry {
  /** UTF-8 of the manifest's RFC 8785 JSON. */
  readonly canonicalBytes: Buffer;
}

/** The registry hash of sorted entries, and the sha-256 states a later load can resume from. */
export interface RegistryHashing<T extends HashedEntry> {
  readonly hash: string;
  readonly order: readonly T[];
  /** `checkpoints[k]`: the state after `[` and the first `k * CHECKPOINT_EVERY` entries. Never updated in place. */
  readonly checkpoints: readonly Hash[];
}

const OPEN = Buffer.from("[");
const COMMA = Buffer.from(",");
const CLOSE = Buffer.from("]");

/**
 * sha-256 of `[` + the entries' canonical JSON joined by `,` + `]` (the RFC 8785
 * JSON of the manifest array), fed piece by piece. With the hashing of a
 * previous load, the prefix of entries that are the very same objects is not
 * hashed again: it resumes from the last saved state inside that prefix.
 */
export function hashRegistry<T extends HashedEntry>(order: readonly T[], previous?: RegistryHashing<T>): RegistryHashing<T> {
  let same = 0;
  if (previous !== undefined) {
    const limit = Math.min(order.length, previous.order.length);
    while (same < limit && order[same] === previous.order[same]) same += 1;
  }
  const resumeAt = previous === undefined ? 0 : Math.min(Math.floor(same / CHECKPOINT_EVERY), previous.checkpoints.length - 1);
  const checkpoints: Hash[] = previous === undefined ? [] : previous.checkpoints.slice(0, resumeAt + 1);
  let state: Hash;
  if (checkpoints.length === 0) {
    state = createHash("sha256").update(OPEN);
    checkpoints.push(state.copy());
  } else {
    state = (checkpoints[resumeAt] as Hash).copy();
  }
  for (let index = resumeAt * CHECKPOINT_EVERY; index < order.length; index += 1) {
    if (index > 0) state.update(COMMA);
    state.update((order[index] as T).canonicalBytes);
    if ((index + 1) % CHECKPOINT_EVERY === 0) checkpoints.push(state.copy());
  }
  return { hash: state.update(CLOSE).digest("hex"), order, checkpoints };
}

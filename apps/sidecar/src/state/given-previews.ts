import type { WriteSlot } from "./shared-state.js";
/** A confirmation lives five minutes (plus a minute of skew): a preview given earlier can no longer be signed. */
export const PREVIEW_MEMORY_MS = 6 * 60 * 1000;
/** Previews kept for one grant, op and args: a target that keeps changing keeps its newest ones. */
export const PREVIEWS_PER_WRITE = 16;
const PREVIEW_MEMORY_ENTRIES = 10_000;

/** The id the previews given for one write (member, grant, op, args) are kept under. */
export function previewId(write: WriteSlot): string {
  return `${write.member}:${write.gid}:${write.op}:${write.argsDigest}`;
}

/**
 * The previews a sidecar gave in `confirmation_required` (and `target_changed`) answers,
 * in this process, by `previewId`, until no confirmation over them can verify. Bounded:
 * the oldest writes are dropped past 10 000, and each keeps its newest 16 previews.
 */
export class GivenPreviews {
  readonly #entries = new Map<string, { previews: string[]; until: number }>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  remember(id: string, preview: string): void {
    const existing = this.#entries.get(id);
    const now = this.#now();
    this.#entries.delete(id);
    const kept = existing !== undefined && existing.until > now ? existing.previews.filter((given) => given !== preview) : [];
    const previews = [preview, ...kept].slice(0, PREVIEWS_PER_WRITE);
    this.#entries.set(id, { previews, until: now + PREVIEW_MEMORY_MS });
    while (this.#entries.size > PREVIEW_MEMORY_ENTRIES) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }

  given(id: string): readonly string[] {
    const entry = this.#entries.get(id);
    if (entry === undefined || entry.until <= this.#now()) return [];
    return entry.previews;
  }
}

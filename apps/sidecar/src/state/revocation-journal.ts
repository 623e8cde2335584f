import { LineJournal, type JournalIo } from "../audit/line-journal.js";

const ENTRY = /^([A-Za-z0-9_-]{22}) ([A-Za-z0-9_-]{43}) ([0-9]{1,15})$/;
/** At most this many live revocations; each grant lives an hour at most, so this is generous. */
const MAX_REVOCATIONS = 100_000;

/**
 * Revoked grants of a sidecar without Redis: `<gid> <member> <until>` lines in
 * a 0600 file, flushed before `POST /v1/revoke` answers, loaded at start
 * without the expired ones, so a revocation survives a restart.
 */
export class RevocationJournal {
  /** `<gid> <member>` -> until (Unix seconds): a grant is revoked only by its own member, so one member can never undo or fake another's. */
  private readonly revoked = new Map<string, number>();
  private readonly file: LineJournal | undefined;

  /** Without a path, revocations are kept in memory only (tests). */
  constructor(path?: string, io?: JournalIo) {
    this.file = path === undefined ? undefined : new LineJournal(path, io);
  }

  load(now: number = Math.floor(Date.now() / 1000)): void {
    if (this.file === undefined || this.file.isOpen) return;
    for (const line of this.file.readLines()) {
      const match = ENTRY.exec(line);
      if (match === null) continue;
      const [, gid = "", member = "", until = "0"] = match;
      if (Number(until) > now) this.revoked.set(`${gid} ${member}`, Math.max(Number(until), this.revoked.get(`${gid} ${member}`) ?? 0));
    }
    this.file.rewrite([...this.revoked].map(([key, until]) => `${key} ${until}`));
  }

  /** Records the revocation, on disk first. Throws when it cannot be written or the journal is full. */
  revoke(gid: string, member: string, until: number, now: number = Math.floor(Date.now() / 1000)): void {
    this.purge(now);
    const key = `${gid} ${member}`;
    const known = this.revoked.get(key);
    if (known !== undefined && known >= until) return;
    if (known === undefined && this.revoked.size >= MAX_REVOCATIONS) throw new Error("too many live revocations");
    this.file?.append(`${key} ${until}`);
    this.revoked.set(key, until);
  }

  /** Whether `member` revoked its grant `gid`. */
  isRevoked(gid: string, member: string, now: number = Math.floor(Date.now() / 1000)): boolean {
    const key = `${gid} ${member}`;
    const until = this.revoked.get(key);
    if (until === undefined) return false;
    if (until <= now) {
      this.revoked.delete(key);
      return false;
    }
    return true;
  }

  /** Every live revocation, `[gid, member, until]`: what a sidecar writes back to a store that lost its data. */
  *entries(now: number = Math.floor(Date.now() / 1000)): Generator<[string, string, number]> {
    for (const [key, until] of this.revoked) {
      if (until <= now) continue;
      const [gid = "", member = ""] = key.split(" ");
      yield [gid, member, until];
    }
  }

  close(): void {
    this.file?.close();
  }

  private purge(now: number): void {
    if (this.revoked.size < 1024) return;
    for (const [key, until] of this.revoked) if (until <= now) this.revoked.delete(key);
  }
}

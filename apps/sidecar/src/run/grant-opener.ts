import { CLOCK_SKEW_SECONDS, expiredGrantSummary, GrantError, openGrant, type Grant, type KeyPair } from "@eleven-integrations/grants";

/** Opens a grant as `openGrant` does, throwing `GrantError`. */
export type GrantOpener = (sealed: string) => Grant;

export interface GrantOpenerOptions {
  botKeys: KeyPair;
  trustedMembers: readonly string[];
  /** Opened grants remembered; default 1024. */
  maxEntries?: number;
  /** Unix seconds; defaults to the clock. */
  now?: () => number;
}

export const DEFAULT_OPENED_GRANTS = 1024;

/**
 * `openGrant` for one bot and a fixed set of trusted members, remembering each
 * grant it opened (keyed by the sealed token itself: the engine hashes a string
 * several times faster than SHA-256 does, and equal keys are equal tokens) so a
 * bot presenting the same grant on every call pays for the box opening and the
 * signature check once. A remembered grant is still refused once it expires;
 * refusals are not remembered. The oldest entry goes when the cache is full, so
 * it holds at most `maxEntries` sealed tokens (a few KiB each; the sealed token
 * is no secret to this process, which holds the opened grant beside it).
 */
export function createGrantOpener(options: GrantOpenerOptions): GrantOpener {
  const maxEntries = options.maxEntries ?? DEFAULT_OPENED_GRANTS;
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const trustedMembers = [...options.trustedMembers];
  const opened = new Map<string, Grant>();

  return (sealed) => {
    const time = now();
    const known = opened.get(sealed);
    if (known !== undefined) {
      if (known.exp + CLOCK_SKEW_SECONDS > time) return known;
      opened.delete(sealed);
      throw new GrantError("expired", "the grant has expired", expiredGrantSummary(known));
    }
    const grant = openGrant(sealed, { bot: options.botKeys, trustedMembers, now: time });
    if (opened.size >= maxEntries) {
      const oldest = opened.keys().next();
      if (oldest.done !== true) opened.delete(oldest.value);
    }
    opened.set(sealed, Object.freeze(grant));
    return grant;
  };
}

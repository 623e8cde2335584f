import { createHash, randomBytes, timingSafeEqual, type Hash } from "node:crypto";
import { canonicalJson } from "@eleven-integrations/schema";

/** The longest `next_page` handed out: the envelope carries at most 1 KiB. */
export const MAX_PAGE_TOKEN_LENGTH = 1024;
const PREFIX = "ep1.";
const CONTEXT = "eleven.page.v1";
const MAC_LENGTH = 32;
/** The longest cursor a token can carry: what is left of 1 KiB after the prefix, the separator and the MAC. */
export const MAX_CURSOR_BYTES = Math.floor(((MAX_PAGE_TOKEN_LENGTH - PREFIX.length - 1 - Math.ceil((MAC_LENGTH * 4) / 3)) * 3) / 4);

/** What a page token is bound to: one op of one manifest, one set of args (the cursor arg left out). */
export interface PageBinding {
  readonly integration: string;
  readonly op: string;
  readonly manifestHash: string;
  readonly args: Readonly<Record<string, string>>;
  readonly cursorArg: string;
}

export type OpenPageResult = { readonly ok: true; readonly cursor: string } | { readonly ok: false; readonly message: string };

/**
 * Page tokens: `ep1.<cursor, base64url>.<HMAC-SHA256, base64url>`. The MAC, under a key
 * only this executor (or the executors sharing its `pageKey`) holds, covers the
 * integration, the op, the manifest's hash, a SHA-256 of the RFC 8785 JSON of the args
 * (without the cursor arg) and the cursor, each length-prefixed, so a token made for
 * another op, other args or another manifest version, or changed by one byte, is refused.
 */
export class PageSigner {
  /** SHA-256 states after HMAC's padded key blocks (RFC 2104): the key's part of every MAC, done once. */
  readonly #inner: Hash;
  readonly #outer: Hash;
  /** The inner state after the fixed fields of a binding (everything but the cursor), by binding: a paging loop signs the same op and args again and again. */
  readonly #bound = new Map<string, Hash>();

  constructor(key?: Uint8Array) {
    if (key !== undefined && key.length < 32) throw new TypeError("pageKey must be at least 32 bytes");
    let block = key === undefined ? randomBytes(32) : Buffer.from(key);
    if (block.length > SHA256_BLOCK) block = createHash("sha256").update(block).digest();
    const padded = Buffer.alloc(SHA256_BLOCK);
    block.copy(padded);
    this.#inner = createHash("sha256").update(padded.map((byte) => byte ^ 0x36));
    this.#outer = createHash("sha256").update(padded.map((byte) => byte ^ 0x5c));
    padded.fill(0);
    block.fill(0);
  }

  /** A token for the next page, or undefined when the cursor is too long to carry. */
  issue(binding: PageBinding, cursor: string): string | undefined {
    const bytes = Buffer.from(cursor, "utf8");
    if (bytes.length > MAX_CURSOR_BYTES || bytes.length === 0) return undefined;
    return `${PREFIX}${bytes.toString("base64url")}.${this.#mac(binding, bytes).toString("base64url")}`;
  }

  open(token: unknown, binding: PageBinding): OpenPageResult {
    if (typeof token !== "string" || token.length > MAX_PAGE_TOKEN_LENGTH || !token.startsWith(PREFIX)) {
      return { ok: false, message: "page is not a page token this executor made" };
    }
    const parts = token.slice(PREFIX.length).split(".");
    const [cursorPart, macPart] = parts;
    if (parts.length !== 2 || cursorPart === undefined || macPart === undefined || !isBase64url(cursorPart) || !isBase64url(macPart)) {
      return { ok: false, message: "page is not a page token this executor made" };
    }
    const bytes = Buffer.from(cursorPart, "base64url");
    const mac = Buffer.from(macPart, "base64url");
    // Canonical base64url only, so a token has exactly one spelling.
    if (bytes.toString("base64url") !== cursorPart || mac.length !== MAC_LENGTH || mac.toString("base64url") !== macPart) {
      return { ok: false, message: "page is not a page token this executor made" };
    }
    if (!timingSafeEqual(mac, this.#mac(binding, bytes))) {
      return { ok: false, message: "page was made for another operation, other args or an older manifest, or was changed" };
    }
    return { ok: true, cursor: bytes.toString("utf8") };
  }

  /** HMAC-SHA256 (RFC 2104, the same bytes `createHmac` gives) over the length-prefixed fields and the cursor. */
  #mac(binding: PageBinding, cursor: Buffer): Buffer {
    const inner = this.#fixed(binding).copy().update(lengthPrefixed(cursor)).digest();
    return this.#outer.copy().update(inner).digest();
  }

  #fixed(binding: PageBinding): Hash {
    // Ids and the hex hash hold no newline, and the args are last: the key is unambiguous.
    const key = `${binding.integration}\n${binding.op}\n${binding.manifestHash}\n${boundArgsKey(binding.args, binding.cursorArg)}`;
    let state = this.#bound.get(key);
    if (state === undefined) {
      const args = boundArgsJson(binding.args, binding.cursorArg);
      state = this.#inner.copy();
      for (const field of [CONTEXT, binding.integration, binding.op, binding.manifestHash, createHash("sha256").update(args).digest("hex")]) {
        const bytes = Buffer.from(field, "utf8");
        state.update(lengthPrefix(bytes.length)).update(bytes);
      }
      if (this.#bound.size >= MAX_BOUND_STATES) this.#bound.clear();
      this.#bound.set(key, state);
    }
    return state;
  }
}

const SHA256_BLOCK = 64;
/** Bindings whose fixed MAC state is kept; past it the cache starts over (a state is cheap to make again). */
const MAX_BOUND_STATES = 256;

/**
 * The args without the cursor arg, as a cache key: each name and value as a JSON string
 * (self-delimiting, so the key is unambiguous), in the order given. Cheaper than the
 * canonical JSON; args given in another order only make another key for the same state.
 */
function boundArgsKey(args: Readonly<Record<string, string>>, cursorArg: string): string {
  let key = "";
  for (const name of Object.keys(args)) if (name !== cursorArg) key += `${JSON.stringify(name)}:${JSON.stringify(args[name])},`;
  return key;
}

/** The RFC 8785 JSON of the args without the cursor arg: what the token's args digest is taken over. */
function boundArgsJson(args: Readonly<Record<string, string>>, cursorArg: string): string {
  const bound: Record<string, string> = {};
  for (const [name, value] of Object.entries(args)) if (name !== cursorArg) bound[name] = value;
  return canonicalJson(bound);
}

/** The bytes after their length, in one buffer (one update of the hash instead of two). */
function lengthPrefixed(bytes: Buffer): Buffer {
  const out = Buffer.allocUnsafe(4 + bytes.length);
  out.writeUInt32BE(bytes.length, 0);
  bytes.copy(out, 4);
  return out;
}

function lengthPrefix(length: number): Buffer {
  const prefix = Buffer.alloc(4);
  prefix.writeUInt32BE(length);
  return prefix;
}

function isBase64url(text: string): boolean {
  return /^[A-Za-z0-9_-]+$/.test(text);
}

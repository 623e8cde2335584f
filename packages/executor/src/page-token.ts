import crypto, { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { canonicalJson, type ArgValue } from "@eleven-integrations/schema";
import type { ArgValues } from "./check-args.js";

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
  readonly args: ArgValues;
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
  /** HMAC's padded inner key block (RFC 2104, the key XOR ipad): the key's part of every inner message. */
  readonly #innerBlock: Buffer;
  /** The outer message: the opad block, then the inner digest of the MAC being made. */
  readonly #outer: Buffer;
  /** Where the inner message is put together (key material, so never in Buffer's shared pool); MACs are made synchronously, one at a time. */
  readonly #scratch = Buffer.allocUnsafeSlow(SCRATCH_BYTES);
  /** The inner block followed by the fixed fields of a binding (everything but the cursor), by binding: a paging loop signs the same op and args again and again. */
  readonly #bound = new Map<string, Buffer>();

  constructor(key?: Uint8Array) {
    if (key !== undefined && key.length < 32) throw new TypeError("pageKey must be at least 32 bytes");
    let block = key === undefined ? randomBytes(32) : Buffer.from(key);
    if (block.length > SHA256_BLOCK) block = createHash("sha256").update(block).digest();
    const padded = Buffer.alloc(SHA256_BLOCK);
    block.copy(padded);
    this.#innerBlock = Buffer.alloc(SHA256_BLOCK);
    this.#outer = Buffer.alloc(SHA256_BLOCK + MAC_LENGTH);
    for (let index = 0; index < SHA256_BLOCK; index += 1) {
      this.#innerBlock[index] = (padded[index] as number) ^ 0x36;
      this.#outer[index] = (padded[index] as number) ^ 0x5c;
    }
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

  /**
   * HMAC-SHA256 (RFC 2104, the same bytes `createHmac` gives) over the length-prefixed fields
   * and the cursor: two one-shot SHA-256s over whole messages, which cost less than copying
   * saved `Hash` states (each copy a new stream object).
   */
  #mac(binding: PageBinding, cursor: Buffer): Buffer {
    const fixed = this.#fixed(binding);
    const length = fixed.length + 4 + cursor.length;
    const inner = length <= this.#scratch.length ? this.#scratch.subarray(0, length) : Buffer.allocUnsafeSlow(length);
    fixed.copy(inner, 0);
    inner.writeUInt32BE(cursor.length, fixed.length);
    cursor.copy(inner, fixed.length + 4);
    sha256(inner).copy(this.#outer, SHA256_BLOCK);
    return sha256(this.#outer);
  }

  #fixed(binding: PageBinding): Buffer {
    // Ids and the hex hash hold no newline, and the args are last: the key is unambiguous.
    const key = `${binding.integration}\n${binding.op}\n${binding.manifestHash}\n${boundArgsKey(binding.args, binding.cursorArg)}`;
    let fixed = this.#bound.get(key);
    if (fixed === undefined) {
      const args = boundArgsJson(binding.args, binding.cursorArg);
      const parts: Buffer[] = [this.#innerBlock];
      for (const field of [CONTEXT, binding.integration, binding.op, binding.manifestHash, createHash("sha256").update(args).digest("hex")]) {
        const bytes = Buffer.from(field, "utf8");
        parts.push(lengthPrefix(bytes.length), bytes);
      }
      fixed = Buffer.allocUnsafeSlow(parts.reduce((total, part) => total + part.length, 0));
      let offset = 0;
      for (const part of parts) offset += part.copy(fixed, offset);
      if (this.#bound.size >= MAX_BOUND_STATES) this.#bound.clear();
      this.#bound.set(key, fixed);
    }
    return fixed;
  }
}

const SHA256_BLOCK = 64;
/** Room for a usual binding's fixed part and a cursor; a longer inner message gets a buffer of its own. */
const SCRATCH_BYTES = 2048;
/** Bindings whose fixed MAC prefix is kept; past it the cache starts over (a prefix is cheap to make again). */
const MAX_BOUND_STATES = 256;

/**
 * The args without the cursor arg, as a cache key: each name and value after its length
 * (self-delimiting, so the key is unambiguous), in the order given. Cheaper than the
 * canonical JSON, or a JSON string of each; args given in another order only make another
 * key for the same state.
 */
function boundArgsKey(args: ArgValues, cursorArg: string): string {
  let key = "";
  for (const name of Object.keys(args)) {
    if (name === cursorArg) continue;
    const given = args[name];
    // A list or a file is keyed by its JSON text, after a mark no string value's length can start with.
    const value = typeof given === "string" ? given : `j${canonicalJson(given)}`;
    key += `${name.length}:${name}${typeof given === "string" ? "" : "~"}${value.length}:${value}`;
  }
  return key;
}

/** The RFC 8785 JSON of the args without the cursor arg: what the token's args digest is taken over. */
function boundArgsJson(args: ArgValues, cursorArg: string): string {
  const bound: Record<string, ArgValue> = {};
  for (const [name, value] of Object.entries(args)) if (name !== cursorArg) bound[name] = value;
  return canonicalJson(bound);
}

type OneShotHash = (algorithm: string, data: Buffer, outputEncoding: "buffer") => Buffer;

/** SHA-256 in one call where `crypto.hash` exists (Node 20.12 and later), else through createHash: the same bytes. */
export function sha256Of(oneShot: OneShotHash | undefined): (message: Buffer) => Buffer {
  if (oneShot === undefined) return (message) => createHash("sha256").update(message).digest();
  return (message) => oneShot("sha256", message, "buffer");
}

const sha256 = sha256Of((crypto as { hash?: OneShotHash }).hash);

function lengthPrefix(length: number): Buffer {
  const prefix = Buffer.alloc(4);
  prefix.writeUInt32BE(length);
  return prefix;
}

function isBase64url(text: string): boolean {
  return /^[A-Za-z0-9_-]+$/.test(text);
}

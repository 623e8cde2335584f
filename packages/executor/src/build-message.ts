import type { ArgProblem } from "./arg-problem.js";
import type { ArgValues } from "./check-args.js";

// An `rfc2822` op's message (issue 38): RFC 5322 headers, RFC 2047 encoded words for text that is
// not plain ASCII, a base64 UTF-8 text body (RFC 2045), CRLF line endings. No value reaches a
// header line unchecked: CR, LF and NUL (and every other control) in a header value are refused,
// addresses must parse, so nothing a bot sends can add a header or a recipient the chip did not show.

export type BuildMessageResult =
  | { readonly ok: true; readonly message: string; readonly base64url: string }
  | { readonly ok: false; readonly problems: readonly ArgProblem[] };

const CRLF = "\r\n";
/** RFC 5322 atext: the characters of a dot-atom. */
const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]";
const DOT_ATOM = `${ATEXT}+(?:\\.${ATEXT}+)*`;
const DOMAIN = "(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
/** An addr-spec with a dot-atom local part and a DNS domain (no quoted local parts, no domain literals, no comments). */
const ADDR_SPEC = new RegExp(`^${DOT_ATOM}@${DOMAIN}$`);
/** `Display Name <addr>`: the name is whatever stands before the last `<`. */
const NAME_ADDR = /^([^<>]*)<([^<>]+)>$/;
/** RFC 5322 msg-id, as Gmail and common mailers write it: `<left@right>`, printable ASCII without specials that break it. */
const MSG_ID = /^<[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@[A-Za-z0-9!#$%&'*+/=?^_`{|}~.[\]:-]+>$/;
/** Controls (C0, DEL, C1), line and paragraph separators: no header value holds one. */
const HEADER_CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
/** A phrase that can stand as written: atoms separated by single spaces. */
const PLAIN_PHRASE = new RegExp(`^${ATEXT}+(?: ${ATEXT}+)*$`);
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** RFC 5322 §2.1.1: lines SHOULD be at most 78 characters. */
const MAX_LINE = 78;
/** RFC 2047 §2: an encoded word is at most 75 characters; 39 bytes make 52 base64 characters, 64 with `=?UTF-8?B??=`, so a word fits after "Subject: " on a 78-character line. */
const WORD_BYTES = 39;

/** Builds the message from the op's message args (already checked against their declarations). */
export function buildMessage(args: ArgValues): BuildMessageResult {
  const problems: ArgProblem[] = [];
  const lines: string[] = [];
  for (const [name, header] of [
    ["to", "To"],
    ["cc", "Cc"],
    ["bcc", "Bcc"],
  ] as const) {
    const value = args[name];
    if (!Array.isArray(value) || value.length === 0) continue;
    const mailboxes: string[] = [];
    value.forEach((item, index) => {
      const mailbox = formatMailbox(item);
      if (typeof mailbox === "string") mailboxes.push(mailbox);
      else problems.push({ arg: name, message: `item ${index} ${mailbox.problem}` });
    });
    // Bcc stays a header: Gmail reads the recipients from it and removes it before delivery.
    lines.push(foldList(`${header}: `, mailboxes, ","));
  }
  const subject = args.subject;
  if (typeof subject === "string") {
    const problem = headerTextProblem(subject);
    if (problem !== undefined) problems.push({ arg: "subject", message: problem });
    else lines.push(unstructured("Subject", subject));
  }
  for (const [name, header] of [
    ["in_reply_to", "In-Reply-To"],
    ["references", "References"],
  ] as const) {
    const value = args[name];
    if (typeof value !== "string") continue;
    const problem = headerTextProblem(value);
    const ids = value.split(" ").filter((id) => id !== "");
    if (problem !== undefined) problems.push({ arg: name, message: problem });
    else if (ids.length === 0 || !ids.every((id) => MSG_ID.test(id)) || (name === "in_reply_to" && ids.length !== 1)) {
      problems.push({
        arg: name,
        message: name === "in_reply_to" ? "must be one message id, <id@host>" : "must be message ids, <id@host>, separated by spaces",
      });
    } else lines.push(foldList(`${header}: `, ids, ""));
  }
  const text = typeof args.text === "string" ? args.text : "";
  if (text.includes("\u0000")) problems.push({ arg: "text", message: "must not hold NUL" });
  if (problems.length > 0) return { ok: false, problems };

  lines.push("MIME-Version: 1.0", 'Content-Type: text/plain; charset="UTF-8"', "Content-Transfer-Encoding: base64");
  const message = `${lines.join(CRLF)}${CRLF}${CRLF}${base64Lines(Buffer.from(withCrlf(text), "utf8"))}`;
  return { ok: true, message, base64url: Buffer.from(message, "utf8").toString("base64url") };
}

/** One address item as a mailbox: `user@example.com` or `Name <user@example.com>`, or the problem with it. */
function formatMailbox(item: string): string | { problem: string } {
  const problem = headerTextProblem(item);
  if (problem !== undefined) return { problem };
  const trimmed = item.trim();
  const named = NAME_ADDR.exec(trimmed);
  const address = (named === null ? trimmed : (named[2] as string)).trim();
  if (!ADDR_SPEC.test(address) || address.length > 254) return { problem: "must be an e-mail address (user@example.com, or Name <user@example.com>)" };
  const name = named === null ? "" : (named[1] as string).trim();
  return name === "" ? address : `${phrase(name)} <${address}>`;
}

/** A display name as RFC 5322 allows: atoms as written, other ASCII as a quoted string, anything else as encoded words. */
function phrase(name: string): string {
  if (PLAIN_PHRASE.test(name)) return name;
  if (PRINTABLE_ASCII.test(name)) return `"${name.replace(/(["\\])/g, "\\$1")}"`;
  return encodedWords(name).join(" ");
}

/** An unstructured header (Subject): as written when it is short printable ASCII, else RFC 2047 encoded words, folded. */
function unstructured(header: string, value: string): string {
  const line = `${header}: ${value}`;
  if (PRINTABLE_ASCII.test(value) && line.length <= MAX_LINE && !value.includes("=?")) return line;
  return foldList(`${header}: `, encodedWords(value), "");
}

/** `=?UTF-8?B?...?=` words of at most 39 UTF-8 bytes each, never splitting a character (RFC 2047 §5). */
function encodedWords(text: string): string[] {
  const words: string[] = [];
  let chunk = "";
  let bytes = 0;
  for (const character of text) {
    const size = Buffer.byteLength(character, "utf8");
    if (bytes + size > WORD_BYTES && chunk !== "") {
      words.push(encodedWord(chunk));
      chunk = "";
      bytes = 0;
    }
    chunk += character;
    bytes += size;
  }
  if (chunk !== "" || words.length === 0) words.push(encodedWord(chunk));
  return words;
}

function encodedWord(text: string): string {
  return `=?UTF-8?B?${Buffer.from(text, "utf8").toString("base64")}?=`;
}

/** Items after a header name, separated by `separator` and a space, folded with CRLF + space before a line would pass 78 characters. */
function foldList(start: string, items: readonly string[], separator: string): string {
  let out = start;
  let lineLength = start.length;
  items.forEach((item, index) => {
    const piece = index < items.length - 1 ? `${item}${separator}` : item;
    if (index > 0 && lineLength + 1 + piece.length > MAX_LINE) {
      out += `${CRLF} ${piece}`;
      lineLength = 1 + piece.length;
    } else {
      out += index > 0 ? ` ${piece}` : piece;
      lineLength += (index > 0 ? 1 : 0) + piece.length;
    }
  });
  return out;
}

/** A header value may hold no control character (CR, LF, NUL and the rest): refused, never stripped, so the member signs what is sent. */
function headerTextProblem(value: string): string | undefined {
  return HEADER_CONTROL.test(value) ? "must not hold a line break, NUL or another control character (it goes in a mail header)" : undefined;
}

/** Every line break of the body as CRLF (RFC 5322 §2.3): a lone CR or LF becomes CRLF. */
function withCrlf(text: string): string {
  return text.replace(/\r\n|\r|\n/g, CRLF);
}

/** Base64 in lines of 76 characters (RFC 2045 §6.8). */
function base64Lines(bytes: Buffer): string {
  const encoded = bytes.toString("base64");
  const lines: string[] = [];
  for (let index = 0; index < encoded.length; index += 76) lines.push(encoded.slice(index, index + 76));
  return lines.join(CRLF);
}

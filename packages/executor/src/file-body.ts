import { randomBytes } from "node:crypto";

/** A file's bytes with what a request says about them. */
export interface FileBytes {
  readonly name: string;
  readonly content_type: string;
  readonly bytes: Buffer;
}

export interface FileBody {
  readonly body: Buffer;
  readonly contentType: string;
}

/** `encoding: "bytes"`: the file's bytes are the body, its type the Content-Type (Dropbox upload). */
export function bytesBody(file: FileBytes): FileBody {
  return { body: file.bytes, contentType: file.content_type };
}

/** One text field of a `multipart/form-data` body (the rendered body's string values). */
export type FormField = readonly [name: string, value: string];

/**
 * `encoding: "multipart"`: `form-data` sends the text fields, then the file under
 * `fileField` with its name; `related` (Google Drive's multipart upload) sends the JSON
 * metadata as the first part and the file as the second. The boundary is random and drawn
 * again until no part holds it.
 */
export function multipartBody(
  kind: "form-data" | "related",
  file: FileBytes,
  options: { readonly fields?: readonly FormField[]; readonly fileField?: string; readonly metadata?: unknown } = {},
): FileBody {
  const heads: string[] = [];
  const contents: Buffer[] = [];
  if (kind === "related") {
    heads.push("Content-Type: application/json; charset=UTF-8");
    contents.push(Buffer.from(JSON.stringify(options.metadata ?? {}), "utf8"));
    heads.push(`Content-Type: ${file.content_type}`);
    contents.push(file.bytes);
  } else {
    for (const [name, value] of options.fields ?? []) {
      heads.push(`Content-Disposition: form-data; name="${quoted(name)}"`);
      contents.push(Buffer.from(value, "utf8"));
    }
    heads.push(
      `Content-Disposition: form-data; name="${quoted(options.fileField ?? "file")}"; ${filenameParameters(file.name)}\r\nContent-Type: ${file.content_type}`,
    );
    contents.push(file.bytes);
  }
  const boundary = freshBoundary(contents, heads);
  const chunks: Buffer[] = [];
  heads.forEach((head, index) => {
    chunks.push(Buffer.from(`--${boundary}\r\n${head}\r\n\r\n`, "utf8"), contents[index] as Buffer, Buffer.from("\r\n", "utf8"));
  });
  chunks.push(Buffer.from(`--${boundary}--\r\n`, "utf8"));
  return { body: Buffer.concat(chunks), contentType: `multipart/${kind}; boundary=${boundary}` };
}

/** A random boundary (RFC 2046: at most 70 characters) found in none of the parts. */
function freshBoundary(contents: readonly Buffer[], heads: readonly string[]): string {
  for (;;) {
    const boundary = `eleven-${randomBytes(24).toString("hex")}`;
    if (!contents.some((content) => content.includes(boundary)) && !heads.some((head) => head.includes(boundary))) return boundary;
  }
}

/** A quoted-string's content: no CR, LF or other control, `"` and `\` escaped. */
function quoted(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]/g, "_").replace(/["\\]/g, "\\$&");
}

/** `filename="…"` (ASCII, controls replaced) and, for a name beyond ASCII, `filename*=UTF-8''…` (RFC 5987). */
function filenameParameters(name: string): string {
  const ascii = quoted(name.replace(/[^\x20-\x7e]/g, "_"));
  if (/^[\x20-\x7e]*$/.test(name)) return `filename="${ascii}"`;
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
  return `filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

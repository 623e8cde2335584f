// Zod-free, so a browser bundle that renders chips and previews (grants) does not carry zod.

/** A placeholder of a preview line: `{title}` or a dot-path of a picked field, `{user.login}`. */
export const LINE_PLACEHOLDER = /\{([A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*)\}/g;

export type LinePart = { kind: "literal"; text: string } | { kind: "field"; path: string };

/** Splits a preview line into literal text and picked-field placeholders, once, at load. */
export function splitLine(line: string): LinePart[] {
  const parts: LinePart[] = [];
  let last = 0;
  // By hand rather than matchAll(LINE_PLACEHOLDER): the same matches without a match array each.
  for (let open = line.indexOf("{"); open !== -1; open = line.indexOf("{", open + 1)) {
    const end = fieldEnd(line, open);
    if (end === -1) continue;
    if (open > last) parts.push({ kind: "literal", text: line.slice(last, open) });
    parts.push({ kind: "field", path: line.slice(open + 1, end) });
    last = end + 1;
    open = end;
  }
  if (last < line.length) parts.push({ kind: "literal", text: line.slice(last) });
  return parts;
}

/** A path character: A-Z, a-z, 0-9, `_` or `-`. */
function isPathCharacter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || code === 0x5f || code === 0x2d;
}

/** Where the `}` of a `{dot.path}` placeholder starting at `open` is, or -1 when none starts there (as LINE_PLACEHOLDER matches). */
function fieldEnd(line: string, open: number): number {
  // Segments of path characters joined by single dots: no dot first, last or twice in a row.
  let afterDot = true;
  for (let index = open + 1; index < line.length; index += 1) {
    const code = line.charCodeAt(index);
    if (isPathCharacter(code)) afterDot = false;
    else if (code === 0x2e && !afterDot) afterDot = true;
    else return code === 0x7d && !afterDot ? index : -1;
  }
  return -1;
}

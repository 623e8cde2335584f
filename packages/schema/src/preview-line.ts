// Zod-free, so a browser bundle that renders chips and previews (grants) does not carry zod.

/** A placeholder of a preview line: `{title}` or a dot-path of a picked field, `{user.login}`. */
export const LINE_PLACEHOLDER = /\{([A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*)\}/g;

export type LinePart = { kind: "literal"; text: string } | { kind: "field"; path: string };

/** Splits a preview line into literal text and picked-field placeholders, once, at load. */
export function splitLine(line: string): LinePart[] {
  const parts: LinePart[] = [];
  let last = 0;
  for (const match of line.matchAll(LINE_PLACEHOLDER)) {
    if (match.index > last) parts.push({ kind: "literal", text: line.slice(last, match.index) });
    parts.push({ kind: "field", path: match[1] as string });
    last = match.index + match[0].length;
  }
  if (last < line.length) parts.push({ kind: "literal", text: line.slice(last) });
  return parts;
}

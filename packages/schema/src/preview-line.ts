// Zod-free, so a browser bundle that renders chips and previews (grants) does not carry zod.

/**
 * A placeholder of a preview line: `{title}`, a dot-path of a picked field, `{user.login}`, or a
 * picked list's element selected by key, `{transitions[id={transition_id}].to.name}`: the first
 * element of the picked field `transitions` whose `id` equals the write's arg `transition_id`, then
 * the dot-path after it.
 */
export const LINE_PLACEHOLDER = /\{([A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*(?:\[[A-Za-z0-9_-]+=\{[a-z][a-z0-9_]*\}\](?:\.[A-Za-z0-9_-]+)*)?)\}/g;

/** A selector by key: the picked list `field`, the element whose `key` equals the write's arg `arg`, then `rest` (a dot-path, or "" for the element). */
export interface LineSelect {
  field: string;
  key: string;
  arg: string;
  rest: string;
}

/** A field part's `path` is the placeholder's text as written (the key a filled preview's fields carry); `select` is set for a selector. */
export type LinePart = { kind: "literal"; text: string } | { kind: "field"; path: string; select?: LineSelect };

/** Splits a preview line into literal text and picked-field placeholders, once, at load. */
export function splitLine(line: string): LinePart[] {
  const parts: LinePart[] = [];
  let last = 0;
  // By hand rather than matchAll(LINE_PLACEHOLDER): the same matches without a match array each.
  for (let open = line.indexOf("{"); open !== -1; open = line.indexOf("{", open + 1)) {
    const end = fieldEnd(line, open);
    if (end === -1) continue;
    if (open > last) parts.push({ kind: "literal", text: line.slice(last, open) });
    const path = line.slice(open + 1, end);
    const select = path.includes("[") ? lineSelect(path) : undefined;
    parts.push(select === undefined ? { kind: "field", path } : { kind: "field", path, select });
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

const SELECTOR = /^([A-Za-z0-9_.-]+)\[([A-Za-z0-9_-]+)=\{([a-z][a-z0-9_]*)\}\](?:\.(.+))?$/;

/** The parts of a selector placeholder's text (one `fieldEnd` accepted). */
function lineSelect(path: string): LineSelect | undefined {
  const match = SELECTOR.exec(path);
  if (match === null) return undefined;
  return { field: match[1] as string, key: match[2] as string, arg: match[3] as string, rest: match[4] ?? "" };
}

/** Where the `}` of a `{dot.path}` placeholder starting at `open` is, or -1 when none starts there (as LINE_PLACEHOLDER matches). */
function fieldEnd(line: string, open: number): number {
  // Segments of path characters joined by single dots: no dot first, last or twice in a row; at most one `[key={arg}]` after a segment.
  let afterDot = true;
  let selected = false;
  for (let index = open + 1; index < line.length; index += 1) {
    const code = line.charCodeAt(index);
    if (isPathCharacter(code) && !(selected && line.charCodeAt(index - 1) === 0x5d)) afterDot = false;
    else if (code === 0x2e && !afterDot) afterDot = true;
    else if (code === 0x5b && !afterDot && !selected) {
      const close = selectorEnd(line, index);
      if (close === -1) return -1;
      selected = true;
      index = close;
    } else return code === 0x7d && !afterDot ? index : -1;
  }
  return -1;
}

/** Where the `]` of a `[key={arg}]` starting at `open` is, or -1. */
function selectorEnd(line: string, open: number): number {
  let index = open + 1;
  const keyStart = index;
  while (index < line.length && isPathCharacter(line.charCodeAt(index))) index += 1;
  if (index === keyStart || line.charCodeAt(index) !== 0x3d || line.charCodeAt(index + 1) !== 0x7b) return -1;
  index += 2;
  const first = line.charCodeAt(index);
  if (!(first >= 0x61 && first <= 0x7a)) return -1;
  for (index += 1; index < line.length; index += 1) {
    const code = line.charCodeAt(index);
    if (code === 0x7d) break;
    if (!((code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || code === 0x5f)) return -1;
  }
  return line.charCodeAt(index) === 0x7d && line.charCodeAt(index + 1) === 0x5d ? index + 1 : -1;
}

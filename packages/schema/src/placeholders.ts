/** A placeholder is exactly `{name}`; braces around anything else are literal text. */
export const PLACEHOLDER = /\{([a-z][a-z0-9_]*)\}/g;

export type TemplatePart = { kind: "literal"; text: string } | { kind: "arg"; name: string };

/** Names of every placeholder in a template, in order of appearance. */
export function placeholderNames(template: string): string[] {
  const names: string[] = [];
  // By hand rather than PLACEHOLDER.exec: the same matches without a match array each (a registry checks thousands of templates at load).
  for (let open = template.indexOf("{"); open !== -1; open = template.indexOf("{", open + 1)) {
    const end = placeholderEnd(template, open);
    if (end === -1) continue;
    names.push(template.slice(open + 1, end));
    open = end;
  }
  return names;
}

/** Whether every placeholder in a template names one of `args`'s own keys (placeholderNames, without the array). */
export function placeholdersDeclared(template: string, args: Readonly<Record<string, unknown>>): boolean {
  for (let open = template.indexOf("{"); open !== -1; open = template.indexOf("{", open + 1)) {
    const end = placeholderEnd(template, open);
    if (end === -1) continue;
    if (!Object.hasOwn(args, template.slice(open + 1, end))) return false;
    open = end;
  }
  return true;
}

/** Where the `}` of a `{name}` placeholder starting at `open` is, or -1 when none starts there. */
function placeholderEnd(template: string, open: number): number {
  let index = open + 1;
  const first = template.charCodeAt(index);
  if (!(first >= 0x61 && first <= 0x7a)) return -1;
  for (index += 1; index < template.length; index += 1) {
    const code = template.charCodeAt(index);
    if (code === 0x7d) return index;
    if (!((code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || code === 0x5f)) return -1;
  }
  return -1;
}

/** Splits a template into literal text and placeholders, once, so rendering does no parsing. */
export function splitTemplate(template: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    if (match.index > last) parts.push({ kind: "literal", text: template.slice(last, match.index) });
    parts.push({ kind: "arg", name: match[1] as string });
    last = match.index + match[0].length;
  }
  if (last < template.length) parts.push({ kind: "literal", text: template.slice(last) });
  return parts;
}

/** The arg name when the whole string is one placeholder, else undefined. */
export function wholePlaceholder(text: string): string | undefined {
  const match = /^\{([a-z][a-z0-9_]*)\}$/.exec(text);
  return match?.[1];
}

/** A placeholder is exactly `{name}`; braces around anything else are literal text. */
export const PLACEHOLDER = /\{([a-z][a-z0-9_]*)\}/g;

export type TemplatePart = { kind: "literal"; text: string } | { kind: "arg"; name: string };

// This module's own copy: PLACEHOLDER is exported, and its lastIndex is anyone's.
const FIND = new RegExp(PLACEHOLDER.source, "g");

/** Names of every placeholder in a template, in order of appearance. */
export function placeholderNames(template: string): string[] {
  if (!template.includes("{")) return [];
  const names: string[] = [];
  FIND.lastIndex = 0;
  for (let match = FIND.exec(template); match !== null; match = FIND.exec(template)) names.push(match[1] as string);
  return names;
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

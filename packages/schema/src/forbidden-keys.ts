/** Keys that name an object's prototype machinery: JavaScript drops or misreads them as data. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/** How deep the walk goes; a manifest is far shallower, and a deeper one is refused by its own fields. */
const MAX_DEPTH = 64;

export interface ForbiddenKey {
  readonly path: readonly PropertyKey[];
  readonly key: string;
}

/**
 * Every `__proto__`, `constructor` or `prototype` key in raw JSON, at any depth, with
 * its path. `JSON.parse` keeps such keys as own data, but a record or JSON schema
 * rebuilds objects by assignment, where `__proto__` sets the prototype and vanishes:
 * the manifest would validate while saying something other than what was written.
 */
export function forbiddenKeys(value: unknown): ForbiddenKey[] {
  // Almost every manifest has none: one walk that allocates nothing says so before paths are built.
  if (!holdsForbiddenKey(value, 0)) return [];
  const found: ForbiddenKey[] = [];
  const walk = (node: unknown, path: PropertyKey[], depth: number): void => {
    if (node === null || typeof node !== "object" || depth > MAX_DEPTH) return;
    if (Array.isArray(node)) {
      node.forEach((item, index) => {
        walk(item, [...path, index], depth + 1);
      });
      return;
    }
    for (const key of Object.keys(node)) {
      if (FORBIDDEN_KEYS.has(key)) {
        found.push({ path: [...path, key], key });
        continue;
      }
      walk((node as Record<string, unknown>)[key], [...path, key], depth + 1);
    }
  };
  walk(value, [], 0);
  return found;
}

function holdsForbiddenKey(node: unknown, depth: number): boolean {
  if (node === null || typeof node !== "object" || depth > MAX_DEPTH) return false;
  if (Array.isArray(node)) {
    for (let index = 0; index < node.length; index += 1) {
      const item: unknown = node[index];
      if (typeof item === "object" && item !== null && holdsForbiddenKey(item, depth + 1)) return true;
    }
    return false;
  }
  // for-in sees every own key Object.keys does (and inherited ones, which only send a rare object down the exact walk above).
  for (const key in node) {
    if ((key.length === 9 || key.length === 11) && FORBIDDEN_KEYS.has(key)) return true;
    const child = (node as Record<string, unknown>)[key];
    if (typeof child === "object" && child !== null && holdsForbiddenKey(child, depth + 1)) return true;
  }
  return false;
}

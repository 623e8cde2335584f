/** Freezes parsed JSON in place, children first; a frozen object is taken as frozen throughout, as JSON data frozen this way is. */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return value;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const item: unknown = value[index];
      if (typeof item === "object" && item !== null) deepFreeze(item);
    }
  } else {
    const record = value as Record<string, unknown>;
    for (const key in record) {
      const item = record[key];
      if (typeof item === "object" && item !== null) deepFreeze(item);
    }
  }
  return Object.freeze(value);
}

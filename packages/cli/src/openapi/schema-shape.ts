/** A JSON Schema (OpenAPI Schema Object) after `$ref`s are resolved. */
export type Schema = Record<string, unknown>;

export function isObject(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The schema and every schema it is composed of through `allOf`, `oneOf` and `anyOf`,
 * depth first; each schema once, so cyclic specs (Stripe's) end.
 */
export function variants(schema: Schema): Schema[] {
  const seen = new Set<Schema>();
  const out: Schema[] = [];
  const visit = (current: Schema): void => {
    if (seen.has(current)) return;
    seen.add(current);
    out.push(current);
    for (const key of ["allOf", "oneOf", "anyOf"]) {
      const list = current[key];
      if (Array.isArray(list)) for (const item of list) if (isObject(item)) visit(item);
    }
  };
  visit(schema);
  return out;
}

/** The leaf variants: those not themselves composed of others (what a value must fit one of). */
function leaves(schema: Schema): Schema[] {
  const all = variants(schema);
  const composed = all.filter((variant) => ["oneOf", "anyOf"].some((key) => Array.isArray(variant[key])));
  if (composed.length === 0) return all;
  return all.filter((variant) => !["oneOf", "anyOf", "allOf"].some((key) => Array.isArray(variant[key])));
}

function types(schema: Schema): string[] {
  const type = schema.type;
  return typeof type === "string" ? [type] : Array.isArray(type) ? type.filter((item): item is string => typeof item === "string") : [];
}

export function isArraySchema(schema: Schema): boolean {
  return variants(schema).some((variant) => types(variant).includes("array") || isObject(variant.items));
}

/** The item schemas of an array schema (through compositions). */
export function itemSchemas(schema: Schema): Schema[] {
  return variants(schema)
    .map((variant) => variant.items)
    .filter(isObject);
}

/**
 * What the schema says about property `name`: the property's schemas, `"free"` when
 * the object takes any key (no declared properties, or an `additionalProperties`
 * schema), or undefined when the schema declares its properties and `name` is not one.
 */
export function propertyOf(schema: Schema, name: string): Schema[] | "free" | undefined {
  const all = variants(schema);
  const found = all.flatMap((variant) => {
    const properties = variant.properties;
    return isObject(properties) && isObject(properties[name]) ? [properties[name] as Schema] : [];
  });
  if (found.length > 0) return found;
  const additional = all.map((variant) => variant.additionalProperties).filter(isObject);
  if (additional.length > 0) return additional;
  const declares = all.some((variant) => isObject(variant.properties) && Object.keys(variant.properties).length > 0);
  const closed = all.some((variant) => variant.additionalProperties === false);
  const scalarOnly = all.every((variant) => types(variant).length > 0 && !types(variant).some((type) => type === "object"));
  if (!declares && !closed && !scalarOnly) return "free";
  return undefined;
}

/** Property names the schema requires (its own and its `allOf` parts'). */
export function requiredOf(schema: Schema): string[] {
  const names = new Set<string>();
  const visit = (current: Schema, seen: Set<Schema>): void => {
    if (seen.has(current)) return;
    seen.add(current);
    if (Array.isArray(current.required)) for (const name of current.required) if (typeof name === "string") names.add(name);
    if (Array.isArray(current.allOf)) for (const part of current.allOf) if (isObject(part)) visit(part, seen);
  };
  visit(schema, new Set());
  return [...names];
}

/** Declared property names, through compositions. */
export function propertyNames(schema: Schema): string[] {
  const names = new Set<string>();
  for (const variant of variants(schema)) if (isObject(variant.properties)) for (const name of Object.keys(variant.properties)) names.add(name);
  return [...names];
}

export interface ValueRules {
  /** Every value allowed, when the schema is a closed list (undefined when it is not). `null` is left out. */
  enum?: string[];
  maxLength?: number;
  pattern?: string;
  /** The JSON types a value may have; empty means any. */
  types: string[];
  format?: string;
  minimum?: number;
  maximum?: number;
}

/**
 * The rules a scalar value must meet. With `oneOf`/`anyOf`, a rule holds only when
 * every alternative states it (the value may fit any of them), so nothing is refused
 * that one alternative would take.
 */
export function valueRules(schema: Schema): ValueRules {
  // Stripe offers `{ enum: [""] }` beside a field's real schema to clear it: "" fits
  // every rule, so such an alternative does not loosen the others.
  const emptyOnly = (variant: Schema) => Array.isArray(variant.enum) && variant.enum.every((value) => value === null || value === "");
  const options = leaves(schema).filter((variant) => !emptyOnly(variant));
  const all = options.length > 0 ? options : leaves(schema);
  const rules: ValueRules = { types: [] };
  const typeSet = new Set<string>();
  let anyType = false;
  for (const variant of all) {
    const list = types(variant);
    if (list.length === 0 && !Array.isArray(variant.enum)) anyType = true;
    for (const type of list) typeSet.add(type);
  }
  rules.types = anyType ? [] : [...typeSet].filter((type) => type !== "null");
  if (all.every((variant) => Array.isArray(variant.enum))) {
    rules.enum = [...new Set(all.flatMap((variant) => (variant.enum as unknown[]).filter((value) => value !== null).map(String)))];
  }
  const maxLengths = all.map((variant) => variant.maxLength);
  if (maxLengths.every((value): value is number => typeof value === "number")) rules.maxLength = Math.max(...maxLengths);
  const patterns = all.map((variant) => variant.pattern);
  if (patterns.length === 1 && typeof patterns[0] === "string") rules.pattern = patterns[0];
  const formats = all.map((variant) => variant.format);
  if (formats.length === 1 && typeof formats[0] === "string") rules.format = formats[0];
  const minimums = all.map((variant) => variant.minimum);
  if (minimums.every((value): value is number => typeof value === "number")) rules.minimum = Math.min(...minimums);
  const maximums = all.map((variant) => variant.maximum);
  if (maximums.every((value): value is number => typeof value === "number")) rules.maximum = Math.max(...maximums);
  return rules;
}

/** Where a dot-path led in a schema: the schemas there (`free` when some object there takes any key), or the first missing segment. */
export type PathWalk = { found: true; schemas: Schema[]; free: boolean } | { found: false; at: number };

/**
 * Walks a dot-path through a response schema the way `pick` walks a response: a
 * segment applied to an array maps over its items.
 */
export function walkPath(schemas: readonly Schema[], path: readonly string[]): PathWalk {
  let current: Schema[] = [...schemas];
  for (let index = 0; index < path.length; index += 1) {
    const name = path[index] as string;
    const next: Schema[] = [];
    let free = false;
    for (const candidate of expandArrays(current)) {
      const property = propertyOf(candidate, name);
      if (property === "free") free = true;
      else if (property !== undefined) next.push(...property);
    }
    if (next.length === 0 && !free) return { found: false, at: index };
    if (next.length === 0) return { found: true, schemas: [], free: true };
    current = next;
  }
  return { found: true, schemas: current, free: false };
}

/** Arrays stand for their items (pick maps a path over an array), nested arrays too. */
export function expandArrays(schemas: readonly Schema[]): Schema[] {
  const out: Schema[] = [];
  const seen = new Set<Schema>();
  const visit = (schema: Schema, depth: number): void => {
    if (seen.has(schema) || depth > 8) return;
    seen.add(schema);
    const items = itemSchemas(schema);
    if (isArraySchema(schema) && items.length > 0) for (const item of items) visit(item, depth + 1);
    else out.push(schema);
  };
  for (const schema of schemas) visit(schema, 0);
  return out;
}

import { describe, expect, it } from "vitest";
import { z } from "zod";
import { compileValidator, type CompileValidatorOptions } from "./compile-validator.js";

/**
 * zod's verdict and the compiled one, side by side. For a value with a JSON text, the compiled
 * one in parsed-JSON mode on what JSON.parse makes of that text must be zod's on the same.
 */
function verdicts(schema: z.ZodType, value: unknown, options?: CompileValidatorOptions): [boolean, boolean] {
  const validate = compileValidator(schema, options);
  const text = JSON.stringify(value);
  if (text !== undefined) expect(validate(JSON.parse(text), true), `parsed-JSON mode on ${text}`).toBe(schema.safeParse(JSON.parse(text)).success);
  return [schema.safeParse(value).success, validate(value)];
}

describe("compileValidator follows any schema built from zod's usual parts", () => {
  // A field added to the manifest schema is one more entry in a shape like this one.
  const schema = z
    .strictObject({
      name: z.string().min(2).max(5),
      count: z.number().int().min(0).optional(),
      kind: z.enum(["a", "b"]),
      one: z.literal(1),
      tags: z
        .array(z.string().regex(/^[a-z]+$/))
        .max(2)
        .optional(),
      map: z.record(z.string().regex(/^x/), z.boolean()).optional(),
      either: z.union([z.string(), z.null()]).optional(),
      body: z.json().optional(),
      page: z
        .discriminatedUnion("from", [z.strictObject({ from: z.literal("link"), key: z.string() }), z.strictObject({ from: z.literal("body") })])
        .optional(),
      label: z
        .string()
        .refine((value) => value.trim() !== "", "empty")
        .optional(),
    })
    .superRefine((value, context) => {
      if (value.kind === "b" && value.count === undefined) context.addIssue({ code: "custom", message: "b needs a count" });
    });
  const base = { name: "abc", kind: "a", one: 1 };

  it.each<[string, unknown]>([
    ["the minimum", base],
    [
      "every optional field",
      {
        ...base,
        count: 3,
        tags: ["x"],
        map: { xa: true },
        either: null,
        body: { a: [1, "2", null, { b: false }] },
        page: { from: "link", key: "k" },
        label: "l",
      },
    ],
    ["a cross-field rule met", { ...base, kind: "b", count: 0 }],
    ["a name of two astral letters (zod counts code points)", { ...base, name: "𝒜𝒜" }],
    ["a name of five astral letters", { ...base, name: "𝒜𝒜𝒜𝒜𝒜" }],
  ])("accepts %s, as zod does", (_name, value) => {
    expect(verdicts(schema, value)).toEqual([true, true]);
  });

  it.each<[string, unknown]>([
    ["an unknown key", { ...base, extra: 1 }],
    ["a missing key", { name: "abc", kind: "a" }],
    ["a too long name", { ...base, name: "abcdef" }],
    ["a one-letter astral name", { ...base, name: "𝒜" }],
    ["a fraction where an integer goes", { ...base, count: 1.5 }],
    ["a negative count", { ...base, count: -1 }],
    ["an unknown enum value", { ...base, kind: "c" }],
    ["a wrong literal", { ...base, one: 2 }],
    ["a tag off the pattern", { ...base, tags: ["X"] }],
    ["too many tags", { ...base, tags: ["a", "b", "c"] }],
    ["a record key off the pattern", { ...base, map: { ya: true } }],
    ["a record value of the wrong type", { ...base, map: { xa: 1 } }],
    ["no union option", { ...base, either: 1 }],
    ["a non-JSON body", { ...base, body: { a: Number.NaN } }],
    ["an unknown page kind", { ...base, page: { from: "cursor" } }],
    ["a failed refine", { ...base, label: " " }],
    ["a failed superRefine", { ...base, kind: "b" }],
    ["an array", []],
    ["null", null],
  ])("refuses %s, as zod does", (_name, value) => {
    expect(verdicts(schema, value)).toEqual([false, false]);
  });

  it("follows a pipe from a check on the raw value into a shape", () => {
    const piped = z
      .unknown()
      .refine((value) => !JSON.stringify(value).includes("evil"), "evil")
      .pipe(z.strictObject({ a: z.string() }));
    expect(verdicts(piped, { a: "good" })).toEqual([true, true]);
    expect(verdicts(piped, { a: "evil" })).toEqual([false, false]);
    expect(verdicts(piped, { a: 1 })).toEqual([false, false]);
    expect(
      compileValidator(
        z
          .string()
          .transform((value) => value.length)
          .pipe(z.number()),
      )("abc"),
    ).toBe(false);
  });

  it("reads shape keys of any spelling, and a key Object.prototype also has as zod does", () => {
    const odd = z.strictObject({ 'a"b\\c': z.string(), "x\u2028y": z.number().optional(), "": z.boolean().optional() });
    expect(verdicts(odd, { 'a"b\\c': "v" })).toEqual([true, true]);
    expect(verdicts(odd, { 'a"b\\c': "v", "x\u2028y": 1, "": true })).toEqual([true, true]);
    expect(verdicts(odd, { 'a"b\\c': 1 })).toEqual([false, false]);
    expect(verdicts(odd, { "x\u2028y": 1 })).toEqual([false, false]);
    // zod reads the inherited `constructor` of an object that has none of its own (and refuses it as a string).
    const named = z.strictObject({ a: z.string(), constructor: z.string().optional() });
    for (const value of [{ a: "v" }, { a: "v", constructor: "c" }, { a: "v", constructor: 1 }, Object.assign(Object.create(null), { a: "v" })]) {
      const [zod, fast] = verdicts(named, value);
      expect(fast).toBe(zod);
    }
  });

  it("leaves a schema that rewrites its value to zod (never says yes)", () => {
    expect(compileValidator(z.string().transform((value) => value.length))("abc")).toBe(false);
    expect(compileValidator(z.string().trim())("abc")).toBe(false);
    expect(compileValidator(z.strictObject({ a: z.string().default("x") }))({ a: "y" })).toBe(false);
    // A non-strict object strips unknown keys: not the value as it is.
    expect(compileValidator(z.object({ a: z.string() }))({ a: "y", b: 1 })).toBe(false);
    expect(compileValidator(z.object({ a: z.string() }))({ a: "y" })).toBe(true);
  });
});

describe("compileValidator folds a raw value's search for keys into the walk of its shape", () => {
  const refused = new Set(["secret", "hidden"]);
  /** The check at any depth, on own keys, as a schema's pre-check on raw JSON does it. */
  const holds = (value: unknown): boolean =>
    typeof value !== "object" || value === null || Object.keys(value).every((key) => !refused.has(key) && holds((value as Record<string, unknown>)[key]));
  let searches = 0;
  const keysCheck = z.superRefine<unknown>((value, context) => {
    searches += 1;
    if (!holds(value)) context.addIssue({ code: "custom", message: "a refused key" });
  });
  const options: CompileValidatorOptions = { refusedKeys: (check) => (check === keysCheck ? refused : undefined) };
  const schema = z
    .unknown()
    .check(keysCheck)
    .pipe(
      z.strictObject({
        map: z.record(z.string(), z.string()).optional(),
        body: z.json().optional(),
        free: z.unknown().optional(),
        hidden: z.string().optional(),
        list: z.array(z.strictObject({ a: z.string() })).optional(),
      }),
    );

  it.each<[string, unknown]>([
    ["nothing refused", { map: { a: "b" }, body: { x: [{ y: 1 }] }, free: { z: { w: 1 } }, list: [{ a: "x" }] }],
    ["refused words as values", { map: { a: "secret" }, body: ["hidden"] }],
  ])("accepts %s, as zod does", (_name, value) => {
    expect(verdicts(schema, value, options)).toEqual([true, true]);
  });

  it.each<[string, unknown]>([
    ["a refused record key", { map: { secret: "x" } }],
    ["a refused key deep in JSON", { body: { x: [{ y: { hidden: 1 } }] } }],
    ["a refused key under an unknown field", { free: { z: [{ secret: 1 }] } }],
    ["a refused key the shape declares", { hidden: "x" }],
    ["a refused key the shape does not declare", { secret: "x" }],
    ["a refused key in an array item", { list: [{ a: "x", secret: "y" }] }],
  ])("refuses %s, as zod does", (_name, value) => {
    expect(verdicts(schema, value, options)).toEqual([false, false]);
  });

  it("with the option, never runs the search itself", () => {
    const validate = compileValidator(schema, options);
    searches = 0;
    expect([validate({ body: { x: [1] } }), validate({ body: { secret: 1 } })]).toEqual([true, false]);
    expect(searches).toBe(0);
  });

  it("without the option, runs the check itself, with the same verdicts", () => {
    expect(verdicts(schema, { map: { a: "b" } })).toEqual([true, true]);
    expect(verdicts(schema, { body: { x: [{ hidden: 1 }] } })).toEqual([false, false]);
  });
});

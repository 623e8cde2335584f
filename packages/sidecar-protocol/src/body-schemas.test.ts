import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runBodySchema, searchBodySchema, wellFormedOp } from "./body-schemas.js";
import { eventsBodySchema, subscribeBodySchema } from "./events-schema.js";
import { parseBody } from "./parse-body.js";
import { isWellFormedRunBody, parseRunBody } from "./run-body-check.js";

describe("parseBody", () => {
  it("takes a run body as sent", () => {
    const body = { grant: "eg1.x", op: "repos.list", args: { per_page: "2" }, page: "p1" };
    expect(parseBody(runBodySchema, body)).toEqual({ ok: true, value: body });
  });

  it("names each unknown key as its own issue, and never coerces a type", () => {
    const result = parseBody(runBodySchema, { grant: "eg1.x", op: "repos.list", args: { per_page: 2 }, extra: 1, other: true });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((issue) => issue.path).sort()).toEqual(["args.per_page", "extra", "other"]);
    expect(result.issues.find((issue) => issue.path === "extra")?.message).toBe("unknown key");
  });

  it("refuses an op that is no op id", () => {
    for (const op of ["repos", "Repos.list", "repos.list.x", `a.${"b".repeat(100)}`]) {
      const result = parseBody(runBodySchema, { grant: "eg1.x", op });
      expect(result.ok).toBe(false);
      expect(wellFormedOp({ op })).toBeNull();
    }
    expect(wellFormedOp({ op: "repos.list" })).toBe("repos.list");
  });

  it("counts the search text in code points: 200 emoji pass, 201 do not", () => {
    const emoji = "\u{1F600}";
    expect(parseBody(searchBodySchema, { q: emoji.repeat(200), grants: [] }).ok).toBe(true);
    const refused = parseBody(searchBodySchema, { q: emoji.repeat(201), grants: [] });
    expect(refused).toEqual({ ok: false, issues: [{ path: "q", message: "must be at most 200 characters" }] });
  });

  it("refuses every body with an arg value that is no string, list of strings or file, naming the arg's path", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z]{1,10}$/),
        fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { minLength: 1 })),
        (name, value) => {
          const result = parseBody(runBodySchema, { grant: "eg1.x", op: "repos.list", args: { [name]: value } });
          expect(result.ok).toBe(false);
          if (result.ok) return;
          expect(result.issues).toHaveLength(1);
          expect(result.issues[0]?.path).toBe(`args.${name}`);
        },
      ),
    );
  });
});

describe("the run body's hand-written check", () => {
  const bodies: unknown[] = [
    { grant: "eg1.x", op: "repos.list" },
    { grant: "eg1.x", op: "repos.list", args: {}, confirmation: "ec1.y", page: "p1" },
    { grant: "eg1.x", op: "repos.list", args: { a: "1", "with space": "", "\u00e9": "\u{1F600}" } },
    Object.assign(Object.create(null), { grant: "eg1.x", op: "repos.list" }),
    { grant: "eg1.x", op: "repos.list", args: Object.assign(Object.create(null), { a: "1" }) },
    { grant: "", op: "repos.list" },
    { grant: 1, op: "repos.list" },
    { op: "repos.list" },
    { grant: "eg1.x" },
    { grant: "eg1.x", op: "Repos.list" },
    { grant: "eg1.x", op: `a.${"b".repeat(98)}` },
    { grant: "eg1.x", op: `a.${"b".repeat(99)}` },
    { grant: "eg1.x", op: "repos.list\n" },
    { grant: "eg1.x", op: "repos.list", args: [] },
    { grant: "eg1.x", op: "repos.list", args: null },
    { grant: "eg1.x", op: "repos.list", args: "a=1" },
    { grant: "eg1.x", op: "repos.list", args: { a: 1 } },
    { grant: "eg1.x", op: "repos.list", args: { a: null } },
    { grant: "eg1.x", op: "repos.list", args: { a: ["1"] } },
    { grant: "eg1.x", op: "repos.list", confirmation: "" },
    { grant: "eg1.x", op: "repos.list", confirmation: 5 },
    { grant: "eg1.x", op: "repos.list", page: "" },
    { grant: "eg1.x", op: "repos.list", page: null },
    { grant: "eg1.x", op: "repos.list", extra: 1 },
    { grant: "eg1.x", op: "repos.list", args: undefined },
    new Date(0),
    [],
    null,
    "a string",
    42,
  ];

  it("gives every body the verdict zod gives it, and takes a well-formed one as sent", () => {
    for (const body of bodies) {
      const fast = isWellFormedRunBody(body);
      expect(fast, JSON.stringify(body)).toBe(runBodySchema.safeParse(body).success);
      const parsed = parseRunBody(body);
      expect(parsed).toEqual(parseBody(runBodySchema, body));
      if (fast && parsed.ok) expect(parsed.value).toBe(body);
    }
  });

  it("agrees with zod on generated JSON bodies", () => {
    const text = fc.oneof(fc.string({ maxLength: 3 }), fc.constantFrom("repos.list", "a.b", "eg1.x"));
    const value = fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null), fc.array(text, { maxLength: 2 }), fc.dictionary(text, text, { maxKeys: 2 }));
    const body = fc.record(
      { grant: value, op: value, args: fc.oneof(value, fc.dictionary(text, value, { maxKeys: 3 })), confirmation: value, page: value, extra: value },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(body, (candidate) => {
        expect(isWellFormedRunBody(candidate)).toBe(runBodySchema.safeParse(candidate).success);
      }),
      { numRuns: 2000 },
    );
  });

  it("takes a run's args as JSON: strings, a list arg's strings, a file arg's file (issue 38)", () => {
    const file = { name: "a.txt", content_type: "text/plain", base64: "aGk=" };
    for (const args of [{ to: ["a@example.com", "b@example.com"] }, { file }, { file: { sha256: "0".repeat(64) } }, { to: [] }]) {
      const body = { grant: "eg1.x", op: "mail.send", args };
      expect(isWellFormedRunBody(body)).toBe(true);
      expect(runBodySchema.safeParse(body).success).toBe(true);
    }
    for (const args of [{ to: [1] }, { to: [["a"]] }, { file: { ...file, extra: 1 } }, { file: { name: "a.txt" } }, { file: { sha256: "x" } }, { n: 1 }]) {
      const body = { grant: "eg1.x", op: "mail.send", args };
      expect(isWellFormedRunBody(body), JSON.stringify(args)).toBe(false);
      expect(runBodySchema.safeParse(body).success).toBe(false);
    }
  });
});

describe("the event bodies", () => {
  it("takes a long poll of at most 30 s and refuses a longer one or an unknown key", () => {
    expect(parseBody(eventsBodySchema, { after: "c", wait_ms: 30_000 }).ok).toBe(true);
    expect(parseBody(eventsBodySchema, {}).ok).toBe(true);
    expect(parseBody(eventsBodySchema, { wait_ms: 30_001 }).ok).toBe(false);
    expect(parseBody(eventsBodySchema, { wait_ms: "10" }).ok).toBe(false);
    expect(parseBody(eventsBodySchema, { after: "c", from: 1 }).ok).toBe(false);
  });

  it("takes a subscription with or without a grant, and nothing else", () => {
    expect(parseBody(subscribeBodySchema, { subscription: "es1.x" }).ok).toBe(true);
    expect(parseBody(subscribeBodySchema, { subscription: "es1.x", grant: "eg1.y" }).ok).toBe(true);
    expect(parseBody(subscribeBodySchema, { grant: "eg1.y" }).ok).toBe(false);
    expect(parseBody(subscribeBodySchema, { subscription: "es1.x", args: {} }).ok).toBe(false);
  });
});

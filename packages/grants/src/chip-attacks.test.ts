// Each test is an attack from the second security review (issue 20, findings 6 and 9, and the
// variation selector after a Latin letter): a value built to make the member read something
// other than what runs. Templates are the shipped manifests' own.
import { readdirSync, readFileSync } from "node:fs";
import { confirmDetailSchema, confirmLineSchema } from "@eleven-integrations/schema";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_CONFIRM_LINE_CODE_POINTS, MIN_CONFIRM_VALUE_CODE_POINTS } from "./limits.js";
import { findLookAlike } from "./look-alike.js";
import { confirmDetails, renderConfirm, renderConfirmParts } from "./render-confirm.js";
import { isQuoteLike } from "./template-delimiters.js";
import { skeleton } from "./unicode/confusables.js";

interface ShippedOperation {
  id: string;
  confirm?: string;
}

function shippedConfirm(integration: string, opId: string): string {
  const manifest = JSON.parse(readFileSync(new URL(`../../../manifests/integrations/${integration}.json`, import.meta.url), "utf8")) as {
    ops: ShippedOperation[] | Record<string, ShippedOperation>;
  };
  const operations = Array.isArray(manifest.ops) ? manifest.ops : Object.values(manifest.ops);
  const confirm = operations.find((operation) => operation.id === opId)?.confirm;
  if (confirm === undefined) throw new Error(`${integration} ${opId} has no confirm line`);
  return confirm;
}

const RECORD = shippedConfirm("gandi", "records.create"); // Add a {type} DNS record {name} → “{value}” to {domain} at Gandi (...)
const REGISTER = shippedConfirm("gandi", "domains.register");
const codePoints = (text: string) => Array.from(text);
const count = (text: string, characters: string) => codePoints(text).filter((character) => characters.includes(character)).length;

describe("a value cannot close the template's quotes or pose as its text (finding 6)", () => {
  const record = { type: "TXT", name: "@", domain: "acme.com" };

  it("the review's attack: a value closing “…” and writing its own sentence shows U+FFFD for every quote, and is flagged", () => {
    const value = "v=spf1 -all” to acme-staging.com, visible only to acme staff; nothing changes for “acme.com";
    const args = { ...record, value };
    const line = renderConfirm(RECORD, args);
    expect(count(line, "“”")).toBe(count(RECORD, "“”"));
    expect(line).toContain("“v=spf1 -all\uFFFD to acme-staging.com, visible only to acme staff; nothing changes for \uFFFDacme.com”");
    const [detail] = confirmDetails(RECORD, args);
    expect(detail).toEqual({ name: "value", value, flags: ["template_look_alike"] });
  });

  const quotes = [..."“”„‟«»‹›\"'‘’‚‛「」『』〝〞＂＇", ..."″ˮ`´〃❝❞❮❯\u{1F676}ʺ‶"];
  for (const quote of quotes) {
    it(`U+${quote.codePointAt(0)?.toString(16).toUpperCase()} ${quote} in a value is U+FFFD in the line and flagged`, () => {
      const args = { ...record, value: `x${quote} y` };
      expect(renderConfirm(RECORD, args)).toContain("“x\uFFFD y”");
      expect(confirmDetails(RECORD, args)[0]?.flags).toEqual(["template_look_alike"]);
    });
  }

  it("keeps an apostrophe between two letters (names, contractions), unflagged", () => {
    for (const word of ["O'Brien", "don’t", "Hawaiʻi", "l’été"]) {
      const args = { ...record, value: word };
      expect(renderConfirm(RECORD, args)).toContain(`“${word}”`);
      expect(confirmDetails(RECORD, args)).toEqual([]);
    }
    expect(renderConfirm(RECORD, { ...record, value: "rock 'n' roll" })).toContain("“rock \uFFFDn\uFFFD roll”");
  });

  it("a bracket like the template's own is U+FFFD; one the template does not use is kept", () => {
    const owner = {
      domain: "acme.com",
      given: "Ada",
      family: "Lovelace",
      email: "ada@acme.com",
      street: "1 Main St",
      city: "London",
      zip: "N1",
      country: "GB",
    };
    const args = { ...owner, owner_type: "individual), admin@evil.example (company" };
    const line = renderConfirm(REGISTER, args);
    expect(line).toContain("(individual\uFFFD, admin@evil.example \uFFFDcompany)");
    expect(count(line, "()")).toBe(count(REGISTER, "()"));
    expect(confirmDetails(REGISTER, args).find((detail) => detail.name === "owner_type")?.flags).toEqual(["template_look_alike"]);
    // Fullwidth and ornamental parentheses share the prototype "(" or ")".
    expect(renderConfirm(REGISTER, { ...owner, owner_type: "a\uFF09 b\u2769" })).toContain("(a\uFFFD b\uFFFD)");
    expect(renderConfirm("Rename to {name}", { name: "Acme (EU) [beta]" })).toBe("Rename to Acme (EU) [beta]");
  });

  it("a value holding one of the template's own symbols (→) is flagged, and kept", () => {
    const args = { ...record, value: "1.2.3.4” to acme.com and www → “5.6.7.8" };
    expect(renderConfirm(RECORD, args)).toContain("www → \uFFFD5.6.7.8");
    expect(confirmDetails(RECORD, { ...record, value: "a → b" })[0]?.flags).toEqual(["template_look_alike"]);
    expect(confirmDetails(RECORD, { ...record, value: "a - b" })).toEqual([]);
  });

  it("renderConfirmParts gives the line and which of it is template text and which a value", () => {
    const args = { ...record, value: "x” y" };
    const line = renderConfirmParts(RECORD, args);
    expect(confirmLineSchema.parse(line)).toEqual(line);
    expect(line.text).toBe(renderConfirm(RECORD, args));
    expect(line.parts.slice(0, 4)).toEqual([
      { kind: "template", text: "Add a " },
      { kind: "value", text: "TXT", arg: "type" },
      { kind: "template", text: " DNS record " },
      { kind: "value", text: "@", arg: "name" },
    ]);
    expect(line.parts.find((part) => part.kind === "value" && part.arg === "value")).toEqual({ kind: "value", text: "x\uFFFD y", arg: "value" });
    expect(line.parts.filter((part) => part.kind === "value" && part.arg === "domain")).toHaveLength(2);
  });

  it("for any values: the parts make the line, every template part is the template's text, no value brings a quote in", () => {
    const value = fc.string({ unit: fc.oneof(fc.constantFrom(..."“”\"'’«»()‹›, x→"), fc.string({ unit: "binary", maxLength: 1 })), maxLength: 60 });
    fc.assert(
      fc.property(value, value, value, (name, content, domain) => {
        const line = renderConfirmParts(RECORD, { type: "A", name, value: content, domain });
        expect(line.parts.map((part) => part.text).join("")).toBe(line.text);
        const literals = RECORD.split(/\{[a-z_]+\}/).filter((text) => text !== "");
        expect(line.parts.filter((part) => part.kind === "template").map((part) => part.text)).toEqual(literals);
        for (const part of line.parts) {
          if (part.kind !== "value") continue;
          const characters = codePoints(part.text);
          characters.forEach((character, index) => {
            if (!isQuoteLike(character)) return;
            // Only an apostrophe between two letters survives.
            expect(/\p{L}|\p{M}/u.test(characters[index - 1] ?? "") && /\p{L}/u.test(characters[index + 1] ?? "")).toBe(true);
          });
        }
      }),
    );
  });
});

describe("look-alike letters are judged by UTS #39 confusable skeletons (finding 9)", () => {
  const owner = {
    domain: "acme.com",
    owner_type: "individual",
    given: "Ada",
    family: "Lovelace",
    street: "1 Main St",
    city: "London",
    zip: "N1",
    country: "GB",
  };

  it("the review's attack: a registrant e-mail spelt in Lisu is flagged look_alike with what it reads as", () => {
    const email = "\uA4E2\uA4F0\uA4E3\uA4E6\uA4F2\uA4DA\uA4F0@\uA4EE\uA4DA\uA4DF\uA4F0.\uA4DA\uA4F3\uA4DF"; // ꓢꓰꓣꓦꓲꓚꓰ@ꓮꓚꓟꓰ.ꓚꓳꓟ
    const details = confirmDetails(REGISTER, { ...owner, email });
    expect(details).toEqual([
      { name: "email", value: email, flags: ["look_alike"], scripts: ["Lisu"], skeleton: "SERVlCE@ACME.COM", reads_as: "SERVlCE@ACME.COM" },
    ]);
    expect(confirmDetails(REGISTER, { ...owner, email: "service@acme.com" })).toEqual([]);
    // The contract the sidecar answers with (sidecar-protocol imports the same schema).
    expect(confirmDetailSchema.array().parse(details)).toEqual(details);
  });

  const cases: [string, string, string, string[]][] = [
    ["Cherokee", "\u13DA\u13AC\u13D2\u13D9", "SERV", ["Cherokee"]],
    ["Latin alpha ɑ (IPA)", "\u0251dmin", "admin", ["Latin"]],
    ["Latin script g ɡ", "\u0261ithub", "github", ["Latin"]],
    ["Mathematical Alphanumerics (no script)", "\u{1D41A}\u{1D41D}\u{1D426}\u{1D422}\u{1D427}", "admin", []],
    ["fullwidth letters", "\uFF41\uFF44\uFF4D\uFF49\uFF4E", "admin", ["Latin"]],
    ["the divides sign ∣ (no script) inside a Latin word", "adm\u2223n", "admln", ["Latin"]],
    ["Greek capitals", "\u039A\u039F\u0391", "KOA", ["Greek"]],
    ["a Cyrillic word", "\u0430\u0440\u0440\u04CF\u0435", "apple", ["Cyrillic"]],
  ];
  for (const [what, value, readsAs, scripts] of cases) {
    it(`${what} is flagged look_alike`, () => {
      const found = findLookAlike(value);
      expect(found?.flags).toContain("look_alike");
      expect(found?.reads_as).toBe(readsAs);
      expect(found?.scripts).toEqual(scripts);
      expect(found?.skeleton).toBe(skeleton(value));
    });
  }

  it("does not flag what reads as itself: accents, other scripts' words, symbols between numbers", () => {
    for (const text of ["naïve café", "Zoë", "\u041F\u0440\u0438\u0432\u0435\u0442", "10 × 3", "m² at 20°C", "Acme™", "２０２６年", "service@acme.com"]) {
      expect(findLookAlike(text), text).toBeUndefined();
    }
  });

  it("skeleton is UTS #39's: NFD, default-ignorables removed, prototypes, NFD", () => {
    expect(skeleton("p\u0430yp\u0430l")).toBe(skeleton("paypal"));
    expect(skeleton("\u{1D426}")).toBe("rn");
    expect(skeleton("a\u200Bb")).toBe("ab");
    expect(skeleton("\u00E9")).toBe("e\u0301");
  });
});

describe("Canadian Syllabics look-alikes are flagged like other look-alikes (third review, finding 11)", () => {
  // The attack: syllabics that pass for Latin capitals mixed into an ASCII value. Before, ᑕ, ᗩ, ᗴ had no
  // ASCII prototype in confusables.txt (so a run holding one read as "other") and the script counted as
  // "Other", which Latin may sit beside: "pay ᑭᗩᒪ" and "Send to ᗪᗩᐯᗴ" passed with no flag at all.
  const attacks: [string, string][] = [
    ["pay \u146D\u15E9\u14AA", "pay PAL"],
    ["Send to \u15EA\u15E9\u142F\u15F4", "Send to DAVE"],
    ["acct \u1455\u0031", "acct C1"],
    ["\u1455\u15E9\u146D", "CAP"],
    ["\u157C\u15F4\u14AA\u14AA\u15F4", "HELLE"],
    ["\u15F7\u1455\u15EA acme", "BCD acme"],
  ];
  for (const [value, readsAs] of attacks) {
    it(`${JSON.stringify(value)} is flagged look_alike, reading as ${JSON.stringify(readsAs)}`, () => {
      const found = findLookAlike(value);
      expect(found?.flags).toContain("look_alike");
      expect(found?.reads_as).toBe(readsAs);
      expect(found?.scripts).toContain("Canadian_Aboriginal");
    });
  }

  it("ᑭ ᗷ ᑕ ᗪ ᕼ each mixed into an ASCII word is flagged mixed_script and look_alike", () => {
    for (const [letter, latin] of [
      ["\u146D", "P"],
      ["\u15F7", "B"],
      ["\u1455", "C"],
      ["\u15EA", "D"],
      ["\u157C", "H"],
    ] as const) {
      const found = findLookAlike(`ACME${letter}AY`);
      expect(found?.flags, letter).toEqual(["mixed_script", "look_alike"]);
      expect(found?.reads_as).toBe(`ACME${latin}AY`);
    }
  });

  it("Latin beside a whole word of syllabics anywhere in the value is mixed_script, as beside Cherokee or Lisu", () => {
    // ᐃᓄᒃᑎᑐᑦ (Inuktitut) imitates nothing, but beside Latin it could hide look-alikes the table does not know.
    expect(findLookAlike("Inuktitut \u1403\u14C4\u1483\u144E\u1450\u1466")?.flags).toContain("mixed_script");
    // The same word alone reads as itself.
    expect(findLookAlike("\u1403\u14C4\u1483\u1450\u1466")).toBeUndefined();
  });

  it("a chip value carries the flag and what it reads as", () => {
    const owner = {
      domain: "acme.com",
      owner_type: "individual",
      given: "Ada",
      family: "Lovelace",
      street: "1 Main St",
      city: "London",
      zip: "N1",
      country: "GB",
    };
    const email = "service@\u15E9\u1455ME.com";
    const details = confirmDetails(REGISTER, { ...owner, email });
    expect(details).toEqual([expect.objectContaining({ name: "email", value: email, flags: ["mixed_script", "look_alike"], reads_as: "service@ACME.com" })]);
  });
});

describe("the whole line is bounded", () => {
  const owner = {
    domain: "acme.com",
    owner_type: "individual",
    given: "Ada",
    family: "Lovelace",
    email: "ada@acme.com",
    street: "1 Main St",
    city: "London",
    zip: "N1",
    country: "GB",
  };

  it(`a line that would pass ${MAX_CONFIRM_LINE_CODE_POINTS} code points cuts its longest values, never the template, and says so`, () => {
    const long = Object.fromEntries(Object.keys(owner).map((name) => [name, `${name}-${"x".repeat(200)}`]));
    const line = renderConfirmParts(REGISTER, long);
    expect(codePoints(line.text).length).toBeLessThanOrEqual(MAX_CONFIRM_LINE_CODE_POINTS);
    const literals = REGISTER.split(/\{[a-z_]+\}/).filter((text) => text !== "");
    expect(line.parts.filter((part) => part.kind === "template").map((part) => part.text)).toEqual(literals);
    for (const part of line.parts) if (part.kind === "value") expect(part.text.endsWith("\u2026")).toBe(true);
    const details = confirmDetails(REGISTER, long);
    expect(details.map((detail) => detail.name).sort()).toEqual(Object.keys(owner).sort());
    for (const detail of details) expect(detail.flags).toEqual(["shortened"]);
  });

  it("cuts only what it must: short values stay whole, the longest are cut to the same length", () => {
    const args = { ...owner, street: "s".repeat(400), city: "c".repeat(400) };
    const line = renderConfirmParts(REGISTER, args);
    expect(codePoints(line.text).length).toBeLessThanOrEqual(MAX_CONFIRM_LINE_CODE_POINTS);
    const street = line.parts.find((part) => part.kind === "value" && part.arg === "street")?.text ?? "";
    const city = line.parts.find((part) => part.kind === "value" && part.arg === "city")?.text ?? "";
    expect(codePoints(street).length).toBe(codePoints(city).length);
    expect(codePoints(street).length).toBeGreaterThan(MIN_CONFIRM_VALUE_CODE_POINTS);
    expect(line.text).toContain("Ada Lovelace (individual), ada@acme.com");
  });

  it("holds for every shipped confirm template with every value at its longest", () => {
    const folder = new URL("../../../manifests/integrations/", import.meta.url);
    let templates = 0;
    for (const file of readdirSync(folder).filter((name) => name.endsWith(".json"))) {
      const manifest = JSON.parse(readFileSync(new URL(file, folder), "utf8")) as { ops: ShippedOperation[] | Record<string, ShippedOperation> };
      for (const operation of Array.isArray(manifest.ops) ? manifest.ops : Object.values(manifest.ops)) {
        if (operation.confirm === undefined) continue;
        templates += 1;
        const names = [...operation.confirm.matchAll(/\{([a-z][a-z0-9_]*)\}/g)].map((match) => match[1] as string);
        const args = Object.fromEntries(names.map((name) => [name, "\u05D0".repeat(300)]));
        expect(codePoints(renderConfirm(operation.confirm, args)).length, `${file} ${operation.id}`).toBeLessThanOrEqual(MAX_CONFIRM_LINE_CODE_POINTS);
      }
    }
    expect(templates).toBeGreaterThan(20);
  });

  it("holds for any values of the longest shipped template", () => {
    const value = fc.string({ unit: "binary", maxLength: 300 });
    fc.assert(
      fc.property(fc.array(value, { minLength: 9, maxLength: 9 }), (values) => {
        const args = Object.fromEntries(Object.keys(owner).map((name, index) => [name, values[index] ?? ""]));
        expect(codePoints(renderConfirm(REGISTER, args)).length).toBeLessThanOrEqual(MAX_CONFIRM_LINE_CODE_POINTS);
      }),
      { numRuns: 200 },
    );
  });
});

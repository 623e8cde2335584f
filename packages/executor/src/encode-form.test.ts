import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeForm } from "./encode-form.js";

describe("encodeForm", () => {
  it("encodes nested keys in brackets, as Stripe reads them", () => {
    expect(encodeForm({ email: "jenny@example.com", metadata: { plan: "pro" } })).toBe("email=jenny%40example.com&metadata[plan]=pro");
  });

  it("indexes array items, objects inside them too", () => {
    expect(encodeForm({ expand: ["default_source", "tax"], items: [{ price: "p_1", quantity: 2 }] })).toBe(
      "expand[0]=default_source&expand[1]=tax&items[0][price]=p_1&items[0][quantity]=2",
    );
  });

  it("encodes values and key names RFC 3986-strictly, so a value cannot add a pair", () => {
    expect(encodeForm({ name: "a&admin=true", "we[ird]": "x y+z!'()*" })).toBe("name=a%26admin%3Dtrue&we%5Bird%5D=x%20y%2Bz%21%27%28%29%2A");
  });

  it("sends null as an empty value and booleans as text; an empty object sends nothing", () => {
    expect(encodeForm({ description: null, livemode: false, metadata: {} })).toBe("description=&livemode=false");
  });

  it("property: every string value decodes back under its key", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 30 }), (value) => {
        const params = new URLSearchParams(encodeForm({ metadata: { note: value } }));
        expect([...params.keys()]).toEqual(["metadata[note]"]);
        expect(params.get("metadata[note]")).toBe(value);
      }),
    );
  });
});

import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { negotiateEncoding } from "./accept-encoding.js";
import { createRepresentation, ifNoneMatchHits, SYNC_COMPRESS_BYTES } from "./representation.js";

describe("negotiateEncoding", () => {
  it.each([
    [undefined, "identity"],
    ["", "identity"],
    ["gzip", "gzip"],
    ["br", "br"],
    ["gzip, deflate, br", "br"],
    ["gzip, deflate, br, zstd", "br"],
    ["br;q=0.5, gzip;q=0.8", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["br;q=0, gzip;q=0", "identity"],
    ["*", "br"],
    ["*;q=0.5, br;q=0", "gzip"],
    ["deflate", "identity"],
    ["identity", "identity"],
    ["GZIP", "gzip"],
    ["x-gzip", "gzip"],
    ["gzip;q=banana", "identity"],
    ["br ; q=1.0 , gzip;q=0.1", "br"],
  ] as const)("%s -> %s", (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});

describe("representations", () => {
  const body = Buffer.from(JSON.stringify({ items: Array.from({ length: 50 }, (_, index) => ({ index, name: "repeated text" })) }));
  const representation = createRepresentation({ body, contentType: "application/json", tag: "abc", cacheControl: "public, max-age=1" });

  it("gives each encoding its own strong ETag", () => {
    expect(representation.select(undefined).etag).toBe('"abc"');
    expect(representation.select("gzip").etag).toBe('"abc-gzip"');
    expect(representation.select("br").etag).toBe('"abc-br"');
    expect(representation.select("br").headers["content-encoding"]).toBe("br");
    expect(representation.select("br").notModifiedHeaders["content-encoding"]).toBeUndefined();
  });

  it("keeps identity when compression would not make the body smaller", () => {
    const tiny = createRepresentation({ body: Buffer.from("{}"), contentType: "application/json", tag: "t", cacheControl: "no-cache" });
    expect(tiny.select("br").etag).toBe('"t"');
    expect(tiny.select("br").headers["content-encoding"]).toBeUndefined();
  });

  it("matches If-None-Match weakly, in lists, and with *", () => {
    expect(ifNoneMatchHits('"abc"', '"abc"')).toBe(true);
    expect(ifNoneMatchHits('W/"abc"', '"abc"')).toBe(true);
    expect(ifNoneMatchHits('"x", "abc"', '"abc"')).toBe(true);
    expect(ifNoneMatchHits("*", '"abc"')).toBe(true);
    expect(ifNoneMatchHits('"abc-gzip"', '"abc"')).toBe(false);
    expect(ifNoneMatchHits("abc", '"abc"')).toBe(false);
    expect(ifNoneMatchHits(undefined, '"abc"')).toBe(false);
  });
});

describe("representations compress on first demand", () => {
  const large = Buffer.from(
    JSON.stringify(Array.from({ length: 30_000 }, (_, index) => ({ index, name: `item ${index}`, text: "repeated text that compresses" }))),
  );

  it("serves a large body as is until its background compression is done, then compressed, with the same bytes", { timeout: 30_000 }, async () => {
    expect(large.length).toBeGreaterThan(SYNC_COMPRESS_BYTES);
    const representation = createRepresentation({ body: large, contentType: "application/json", tag: "big", cacheControl: "no-cache" });
    const first = representation.select("br");
    expect(first.headers["content-encoding"]).toBeUndefined();
    expect(first.body).toBe(large);
    let answer = first;
    for (let waited = 0; answer.headers["content-encoding"] === undefined && waited < 500; waited += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      answer = representation.select("br");
    }
    expect(answer.headers["content-encoding"]).toBe("br");
    expect(answer.etag).toBe('"big-br"');
    expect(brotliDecompressSync(answer.body).equals(large)).toBe(true);
  });

  it("compresses a small body in the request that first asks, and only then", () => {
    const body = Buffer.from(JSON.stringify({ items: Array.from({ length: 50 }, () => "repeated text") }));
    const representation = createRepresentation({ body, contentType: "application/json", tag: "s", cacheControl: "no-cache" });
    const gzipped = representation.select("gzip");
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzipped.body).equals(body)).toBe(true);
    expect(representation.select("gzip")).toBe(gzipped);
  });
});

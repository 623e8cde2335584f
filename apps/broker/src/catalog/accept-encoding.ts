/** The encodings the broker precompresses, best first. */
export type ContentEncoding = "br" | "gzip" | "identity";

const MAX_CACHED = 64;
const cache = new Map<string, ContentEncoding>();

/**
 * The encoding to serve for an `Accept-Encoding` header (RFC 9110 12.5.3): the
 * acceptable coding with the highest q-value, `br` before `gzip` on a tie;
 * identity when neither is acceptable (a server may always send identity).
 * Answers are cached per header value, since clients send a handful of spellings.
 */
export function negotiateEncoding(header: string | undefined): ContentEncoding {
  if (header === undefined || header === "") return "identity";
  const cached = cache.get(header);
  if (cached !== undefined) return cached;
  const encoding = parse(header);
  if (cache.size < MAX_CACHED && header.length <= 256) cache.set(header, encoding);
  return encoding;
}

function parse(header: string): ContentEncoding {
  let wildcard: number | undefined;
  const weights = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name = "", ...parameters] = part.split(";");
    const coding = name.trim().toLowerCase();
    if (coding === "") continue;
    let weight = 1;
    for (const parameter of parameters) {
      const [key = "", value = ""] = parameter.split("=");
      if (key.trim().toLowerCase() !== "q") continue;
      const number = Number(value.trim());
      weight = Number.isFinite(number) && number >= 0 && number <= 1 ? number : 0;
    }
    if (coding === "*") wildcard = weight;
    else weights.set(coding, Math.max(weights.get(coding) ?? 0, weight));
  }
  const weightOf = (coding: string) => weights.get(coding) ?? wildcard ?? 0;
  const brotli = weightOf("br");
  const gzip = Math.max(weightOf("gzip"), weights.get("x-gzip") ?? 0);
  if (brotli > 0 && brotli >= gzip) return "br";
  if (gzip > 0) return "gzip";
  return "identity";
}

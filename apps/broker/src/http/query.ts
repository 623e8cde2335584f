/** The query of a request URL, parsed once without fastify's array coercion. */
export function queryOf(url: string): URLSearchParams {
  const start = url.indexOf("?");
  return new URLSearchParams(start === -1 ? "" : url.slice(start + 1));
}

/** The one value of `name`, or undefined when it is missing or given more than once. */
export function single(query: URLSearchParams, name: string): string | undefined {
  const values = query.getAll(name);
  return values.length === 1 ? values[0] : undefined;
}

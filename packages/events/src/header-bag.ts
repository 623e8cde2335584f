/** Request headers as Node gives them (`IncomingHttpHeaders`) or as a plain record: names in any case. */
export type WebhookHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

export type HeaderValue = { kind: "absent" } | { kind: "one"; value: string } | { kind: "duplicate" };

/**
 * One header by name, case-insensitively. A header given twice (an array of more than one
 * value, or two keys differing only in case) is `duplicate`: a signature header is never
 * chosen from several.
 */
export function readHeader(headers: WebhookHeaders, name: string): HeaderValue {
  const wanted = name.toLowerCase();
  const values: string[] = [];
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() !== wanted) continue;
    const value = headers[key];
    if (value === undefined) continue;
    if (typeof value === "string") values.push(value);
    else for (const one of value) values.push(one);
  }
  if (values.length === 0) return { kind: "absent" };
  if (values.length > 1) return { kind: "duplicate" };
  const [value] = values as [string];
  return value.trim().length === 0 ? { kind: "absent" } : { kind: "one", value: value.trim() };
}

import { PLACEHOLDER } from "./placeholders.js";

/** Where a tenant placeholder sits in a URL template. */
export type TenantPlace = "host" | "path";

export interface TenantPlaceholder {
  readonly name: string;
  readonly place: TenantPlace;
}

export type TenantTemplateResult =
  | { readonly ok: true; readonly placeholders: readonly TenantPlaceholder[]; readonly probe: string }
  | { readonly ok: false; readonly problem: string };

/** A valid DNS label that stands in for a placeholder while the rest of the URL is checked. */
export const TENANT_PROBE = "tenant";
const NO_PLACEHOLDERS: readonly TenantPlaceholder[] = Object.freeze([]);
/** Any brace-delimited run, to find braces that are not a placeholder. */
const BRACED = /\{[^}]*\}?|\}/g;

/**
 * Finds the tenant placeholders of a URL template (`https://{subdomain}.zendesk.com/api/v2`,
 * `https://api.atlassian.com/ex/jira/{cloudid}`) and checks where they stand: a host
 * placeholder is the whole leftmost label, in front of a fixed suffix of at least two
 * labels; a path placeholder is a whole segment. `probe` is the template with every
 * placeholder replaced by a valid label, for the URL checks that follow.
 */
export function parseTenantTemplate(url: string, maxPlaceholders: number): TenantTemplateResult {
  // Without a brace there is no placeholder and nothing stray: most URLs.
  if (!url.includes("{") && !url.includes("}")) return { ok: true, placeholders: NO_PLACEHOLDERS, probe: url };
  const names = [...url.matchAll(PLACEHOLDER)].map((match) => match[1] as string);
  const stray = url.replace(PLACEHOLDER, "").match(BRACED);
  if (stray !== null) return { ok: false, problem: `holds "${stray[0]}": braces may only form a {tenant} placeholder` };
  if (names.length === 0) return { ok: true, placeholders: [], probe: url };
  if (names.length > maxPlaceholders) {
    return {
      ok: false,
      problem: `holds ${names.length} placeholders; at most ${maxPlaceholders} tenant setting${maxPlaceholders === 1 ? "" : "s"} may stand in it`,
    };
  }
  if (!url.startsWith("https://")) return { ok: false, problem: "must be an https URL" };
  const rest = url.slice("https://".length);
  const slash = rest.indexOf("/");
  const authority = slash === -1 ? rest : rest.slice(0, slash);
  const path = slash === -1 ? "" : rest.slice(slash);
  const placeholders: TenantPlaceholder[] = [];
  for (const match of authority.matchAll(PLACEHOLDER)) {
    const name = match[1] as string;
    const suffix = authority.slice(`{${name}}`.length);
    if (match.index !== 0 || !suffix.startsWith(".")) {
      return { ok: false, problem: `{${name}} must be the whole leftmost label of the host, in front of a fixed suffix (https://{${name}}.example.com)` };
    }
    if (suffix.slice(1).split(".").length < 2) {
      return { ok: false, problem: `{${name}} must stand in front of a fixed suffix of at least two labels (such as .zendesk.com)` };
    }
    placeholders.push({ name, place: "host" });
  }
  const query = path.search(/[?#]/);
  const pathOnly = query === -1 ? path : path.slice(0, query);
  for (const match of path.matchAll(PLACEHOLDER)) {
    const name = match[1] as string;
    const segments = pathOnly.split("/");
    if (!segments.includes(`{${name}}`)) return { ok: false, problem: `{${name}} must be a whole path segment (/ex/jira/{${name}})` };
    placeholders.push({ name, place: "path" });
  }
  const seen = new Set<string>();
  for (const placeholder of placeholders) {
    if (seen.has(placeholder.name)) return { ok: false, problem: `names {${placeholder.name}} twice` };
    seen.add(placeholder.name);
  }
  return { ok: true, placeholders, probe: url.replace(PLACEHOLDER, TENANT_PROBE) };
}

/** The longest tenant value. */
export const MAX_TENANT_LENGTH = 63;
/** A DNS label in lowercase LDH form, with no `xn--` (or other `??--`) prefix, so no IDN or punycode look-alike. */
const HOST_TENANT = /^(?!-)(?!..--)[a-z0-9-]{1,63}(?<!-)$/;
/** A path tenant: one segment of letters, digits, `-` and `_`, never a dot segment. */
const PATH_TENANT = /^[A-Za-z0-9_-]{1,63}$/;

/**
 * The problem with a tenant value before its declared pattern is tried, or undefined.
 * Host values are one lowercase DNS label (`[a-z0-9-]`, 1-63, no leading or trailing
 * `-`, no `xn--`); path values one segment of `[A-Za-z0-9_-]`, 1-63.
 */
export function tenantValueProblem(value: string, place: TenantPlace): string | undefined {
  if (value.length === 0) return "is empty";
  if (value.length > MAX_TENANT_LENGTH) return `is longer than ${MAX_TENANT_LENGTH} characters`;
  if (place === "host") {
    return HOST_TENANT.test(value) ? undefined : "must be one DNS label: lowercase letters, digits and inner hyphens (no dots, no xn-- prefix)";
  }
  return PATH_TENANT.test(value) ? undefined : "must be one path segment of letters, digits, - and _";
}

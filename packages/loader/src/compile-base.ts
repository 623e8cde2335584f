import { parseTenantTemplate, tenantValueProblem, type Auth, type TenantPlace } from "@eleven-integrations/schema";

/** `auth.base` for one connection: the origin requests go to and the path prefix ops append to. */
export interface ResolvedBase {
  /** Such as `https://acme.zendesk.com`. */
  readonly origin: string;
  /** Without a trailing slash (`/api/v2`), or `""`. */
  readonly basePath: string;
}

/** One tenant setting, compiled: where it stands and what its values must match. */
export interface CompiledTenantSetting {
  readonly name: string;
  readonly place: TenantPlace;
  /** The declared pattern, anchored, with the `u` flag. */
  readonly pattern: RegExp;
  readonly description: string | undefined;
}

/** A tenant setting's problem, never quoting the value. */
export interface TenantProblem {
  readonly setting: string;
  readonly message: string;
}

export type ResolveBaseResult = { readonly ok: true; readonly base: ResolvedBase } | { readonly ok: false; readonly problems: readonly TenantProblem[] };
export type FillTenantUrlResult = { readonly ok: true; readonly url: string } | { readonly ok: false; readonly problems: readonly TenantProblem[] };

/** `auth.base` compiled once per manifest. */
export interface CompiledBase {
  /** `auth.base` as written (`https://{subdomain}.zendesk.com/api/v2`). */
  readonly template: string;
  /** The tenant settings `base` names (at most one today); empty for a fixed base. */
  readonly settings: readonly CompiledTenantSetting[];
  /** The base itself when it names no tenant, else undefined. */
  readonly fixed: ResolvedBase | undefined;
  /** The base for a connection's settings; a fixed base ignores them. */
  resolve(connection: unknown): ResolveBaseResult;
  /** Fills the tenant placeholders of another URL of the manifest (an OAuth URL) with the connection's settings. */
  fillUrl(template: string, connection: unknown): FillTenantUrlResult;
}

export function compileBase(auth: Auth): CompiledBase {
  const parsed = parseTenantTemplate(auth.base, 1);
  if (!parsed.ok) throw new Error(`unreachable: auth.base passed the schema: ${parsed.problem}`);
  const declared = auth.tenant ?? {};
  const settings = Object.freeze(
    parsed.placeholders.map((placeholder) => {
      const setting = declared[placeholder.name];
      if (setting === undefined) throw new Error(`unreachable: {${placeholder.name}} is declared`);
      return Object.freeze({
        name: placeholder.name,
        place: placeholder.place,
        pattern: new RegExp(`^(?:${setting.pattern})$`, "u"),
        description: setting.description,
      });
    }),
  );
  const byName = new Map(Object.entries(declared).map(([name, setting]) => [name, { name, pattern: new RegExp(`^(?:${setting.pattern})$`, "u") }]));
  const fixed = settings.length === 0 ? split(auth.base) : undefined;

  const fillUrl = (template: string, connection: unknown): FillTenantUrlResult => {
    const placeholders = parseTenantTemplate(template, byName.size);
    if (!placeholders.ok) return { ok: false, problems: [{ setting: "", message: placeholders.problem }] };
    const problems: TenantProblem[] = [];
    let url = template;
    for (const placeholder of placeholders.placeholders) {
      const setting = byName.get(placeholder.name);
      const value = settingValue(connection, placeholder.name);
      const problem = setting === undefined ? "is not a tenant setting of this integration" : valueProblem(value, placeholder.place, setting.pattern);
      if (problem !== undefined) problems.push({ setting: placeholder.name, message: problem });
      else url = url.replace(`{${placeholder.name}}`, value as string);
    }
    if (problems.length > 0) return { ok: false, problems };
    // Parsed back, a filled host is exactly the value in front of the fixed suffix: nothing else moved.
    if (!staysInPlace(template, url)) return { ok: false, problems: [{ setting: "", message: "the tenant settings would change the URL's fixed parts" }] };
    return { ok: true, url };
  };

  return Object.freeze({
    template: auth.base,
    settings,
    fixed,
    resolve: (connection: unknown): ResolveBaseResult => {
      if (fixed !== undefined) return { ok: true, base: fixed };
      const filled = fillUrl(auth.base, connection);
      return filled.ok ? { ok: true, base: split(filled.url) } : filled;
    },
    fillUrl,
  });
}

function settingValue(connection: unknown, name: string): unknown {
  if (connection === null || typeof connection !== "object" || !Object.hasOwn(connection, name)) return undefined;
  return (connection as Record<string, unknown>)[name];
}

function valueProblem(value: unknown, place: TenantPlace, pattern: RegExp): string | undefined {
  if (value === undefined) return "is not set for this connection";
  if (typeof value !== "string") return "must be a string";
  return tenantValueProblem(value, place) ?? (pattern.test(value) ? undefined : "does not match the pattern the integration declares");
}

function split(base: string): ResolvedBase {
  const url = new URL(base);
  return Object.freeze({ origin: url.origin, basePath: base.slice(url.origin.length) });
}

/** The filled URL parses to the template's shape: host labels and path segments where the template had them. */
function staysInPlace(template: string, url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.username !== "" || parsed.password !== "" || parsed.port !== "" || parsed.hash !== "" || !url.startsWith(parsed.origin)) return false;
  const templateHost = template.slice("https://".length).split("/")[0] as string;
  const hostLabels = templateHost.split(".");
  const actualLabels = parsed.hostname.split(".");
  if (hostLabels.length !== actualLabels.length) return false;
  for (let index = 0; index < hostLabels.length; index += 1) {
    const label = hostLabels[index] as string;
    if (!label.startsWith("{") && label !== actualLabels[index]) return false;
  }
  const templatePath = template.slice(`https://${templateHost}`.length).split(/[?#]/)[0] as string;
  const pathSegments = templatePath.split("/");
  const actualSegments = parsed.pathname === "/" && templatePath === "" ? [""] : parsed.pathname.split("/");
  if (pathSegments.length !== actualSegments.length) return false;
  for (let index = 0; index < pathSegments.length; index += 1) {
    const segment = pathSegments[index] as string;
    if (!segment.startsWith("{") && segment !== actualSegments[index]) return false;
  }
  return true;
}

import { parseTenantTemplate, tenantValueProblem } from "./tenant-url.js";

/** What of a manifest's `auth` a connection is checked against: `base` says where each setting stands, `tenant` its pattern. */
export interface TenantAuth {
  readonly base: string;
  readonly tenant?: Readonly<Record<string, { readonly pattern: string }>> | undefined;
}

/** One setting's problem, never quoting the value. */
export interface ConnectionProblem {
  readonly setting: string;
  readonly message: string;
}

/**
 * The problems of a connection's tenant settings (`{ account_sid: "AC…" }`) against the
 * manifest's own `auth`: every placeholder of `base` has a value, no other setting is
 * given, and each value follows its place's rule (`tenantValueProblem`: a host value is
 * one lowercase DNS label, a path value one segment of `[A-Za-z0-9_-]`) and the pattern
 * the manifest declares for it (anchored, `u` flag, as the loader compiles it). Empty
 * when the connection is fine; a manifest without tenant settings takes no connection.
 */
export function connectionProblems(auth: TenantAuth, connection: Readonly<Record<string, unknown>> | undefined): ConnectionProblem[] {
  const parsed = parseTenantTemplate(auth.base, Number.MAX_SAFE_INTEGER);
  if (!parsed.ok) return [{ setting: "", message: `the manifest's base ${parsed.problem}` }];
  const problems: ConnectionProblem[] = [];
  const given = connection ?? {};
  const places = new Map(parsed.placeholders.map((placeholder) => [placeholder.name, placeholder.place]));
  for (const name of Object.keys(given)) {
    if (!places.has(name)) problems.push({ setting: name, message: "is not a tenant setting of this integration" });
  }
  for (const [name, place] of places) {
    const value = Object.hasOwn(given, name) ? given[name] : undefined;
    const declared = auth.tenant?.[name];
    if (value === undefined) problems.push({ setting: name, message: "is not set for this connection" });
    else if (typeof value !== "string") problems.push({ setting: name, message: "must be a string" });
    else if (declared === undefined) problems.push({ setting: name, message: "is not declared in the manifest's auth.tenant" });
    else {
      const problem =
        tenantValueProblem(value, place) ??
        (new RegExp(`^(?:${declared.pattern})$`, "u").test(value) ? undefined : "does not match the pattern the integration declares");
      if (problem !== undefined) problems.push({ setting: name, message: problem });
    }
  }
  return problems;
}

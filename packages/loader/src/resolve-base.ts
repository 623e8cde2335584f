import type { Manifest } from "@eleven-integrations/schema";
import { compileBase, type CompiledBase, type FillTenantUrlResult, type ResolveBaseResult } from "./compile-base.js";

const compiled = new WeakMap<Manifest["auth"], CompiledBase>();

function baseOf(manifest: Manifest): CompiledBase {
  let base = compiled.get(manifest.auth);
  if (base === undefined) {
    base = compileBase(manifest.auth);
    compiled.set(manifest.auth, base);
  }
  return base;
}

/**
 * A manifest's `auth.base` for one connection: `{ origin, basePath }`, the tenant settings
 * (`connection: { subdomain: "acme" }`) filled in and checked (one DNS label or one path
 * segment, the declared pattern), or the problems, naming each setting but never its value.
 * A base without a tenant resolves to itself whatever the connection says.
 */
export function resolveBase(manifest: Manifest, connection?: Readonly<Record<string, string>>): ResolveBaseResult {
  return baseOf(manifest).resolve(connection);
}

/** Fills the tenant placeholders of one of the manifest's OAuth URLs (`authorize_url`, `token_url`, `revocation.url`) the same way. */
export function resolveTenantUrl(manifest: Manifest, url: string, connection?: Readonly<Record<string, string>>): FillTenantUrlResult {
  return baseOf(manifest).fillUrl(url, connection);
}

import { markedError, type Manifest } from "@eleven-integrations/schema";
import type { Envelope } from "./envelope.js";

/** The longest account id or name taken from an identity answer. */
export const MAX_ACCOUNT_TEXT = 256;

/** Which account a credential acts as: `id` always a string (a number written in decimal). */
export interface Account {
  readonly id: string;
  readonly name: string;
}

export type IdentityErrorCode = "identity_not_declared" | "identity_failed" | "identity_incomplete";

/** The identity op's answer does not say which account the credential is. */
export class IdentityError extends markedError("IdentityError") {
  readonly code: IdentityErrorCode;

  constructor(code: IdentityErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

export type AccountResult = { readonly ok: true; readonly account: Account } | { readonly ok: false; readonly error: IdentityError };

/**
 * The account an identity op's envelope names, read from the picked fields the manifest's
 * `auth.identity_fields` names (`id` and `name` when absent). A string is taken as it is,
 * a safe integer written in decimal; anything else, an empty or over-long value, a missing
 * field, an error envelope or an envelope of another op is a typed failure. The broker
 * (after a token exchange) and the sidecar (`/v1/whoami`) share it.
 */
export function accountFromIdentity(manifest: Manifest, envelope: Envelope): AccountResult {
  const { identity, identity_fields: fields } = manifest.auth;
  if (identity === undefined) return fail("identity_not_declared", `${manifest.name} declares no identity op`);
  if (envelope.integration !== manifest.id || envelope.op !== identity) {
    return fail("identity_failed", `the answer is not ${manifest.id} ${identity}'s`);
  }
  if (envelope.status !== "ok") return fail("identity_failed", `${manifest.name} did not say who the credential is (${envelope.error.code})`);
  const data = envelope.data;
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    return fail("identity_incomplete", `${manifest.name}'s identity answer is not one object`);
  }
  const id = accountText(data, fields?.id ?? "id");
  if (!id.ok) return fail("identity_incomplete", `${manifest.name}'s identity answer has no usable account id ("${fields?.id ?? "id"}" ${id.problem})`);
  const name = accountText(data, fields?.name ?? "name");
  if (!name.ok)
    return fail("identity_incomplete", `${manifest.name}'s identity answer has no usable account name ("${fields?.name ?? "name"}" ${name.problem})`);
  return { ok: true, account: Object.freeze({ id: id.text, name: name.text }) };
}

function accountText(data: object, field: string): { ok: true; text: string } | { ok: false; problem: string } {
  if (!Object.hasOwn(data, field)) return { ok: false, problem: "is missing" };
  const value = (data as Record<string, unknown>)[field];
  let text: string;
  if (typeof value === "string") text = value;
  else if (typeof value === "number" && Number.isSafeInteger(value)) text = value.toString(10);
  else return { ok: false, problem: value === null ? "is null" : `is a ${typeof value === "number" ? "number that is not a safe integer" : typeof value}` };
  if (text.trim() === "") return { ok: false, problem: "is empty" };
  if (text.length > MAX_ACCOUNT_TEXT) return { ok: false, problem: `is longer than ${MAX_ACCOUNT_TEXT} characters` };
  return { ok: true, text };
}

function fail(code: IdentityErrorCode, message: string): AccountResult {
  return { ok: false, error: new IdentityError(code, message) };
}

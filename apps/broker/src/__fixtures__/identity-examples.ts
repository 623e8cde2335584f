// The documented identity answers the executor's tests already hold, one per shipped
// manifest: `packages/executor/src/__fixtures__/provider-truth/<id>.json` (`identity`,
// with the documentation page it copies in `source`) for the integrations shipped before
// the third release, else the recorded documented example of the identity op in
// `packages/executor/src/__fixtures__/<id>.json`. Read, not copied, so the two never drift.
import { existsSync, readFileSync } from "node:fs";
import { resolveBase } from "@eleven-integrations/loader";
import type { Manifest } from "@eleven-integrations/schema";

export interface IdentityExample {
  /** The host the identity op reaches. */
  host: string;
  response: { status: number; headers: Record<string, string>; body: unknown };
  /** The account the documentation's answer names (the fixture's own expectation, or its picked fields). */
  account: { id: string; name: string };
}

const FIXTURES = new URL("../../../../packages/executor/src/__fixtures__/", import.meta.url);
const read = (file: string): Record<string, unknown> => JSON.parse(readFileSync(new URL(file, FIXTURES), "utf8")) as Record<string, unknown>;

export function identityExample(manifest: Manifest): IdentityExample | undefined {
  const op = manifest.auth.identity;
  if (op === undefined) return undefined;
  const truthFile = new URL(`provider-truth/${manifest.id}.json`, FIXTURES);
  const truth = existsSync(truthFile)
    ? (read(`provider-truth/${manifest.id}.json`)["identity"] as
        | { op: string; response: IdentityExample["response"]; expect: { account: IdentityExample["account"] } }
        | undefined)
    : undefined;
  const recorded = read(`${manifest.id}.json`)[op] as
    | { response: IdentityExample["response"]; picked?: Record<string, unknown>; connection?: Record<string, string> }
    | undefined;
  const response = truth?.op === op ? truth.response : recorded?.response;
  const text = (value: unknown) => (typeof value === "number" ? String(value) : (value as string));
  const account =
    truth?.op === op
      ? truth.expect.account
      : recorded?.picked === undefined
        ? undefined
        : { id: text(recorded.picked[manifest.auth.identity_fields?.id ?? "id"]), name: text(recorded.picked[manifest.auth.identity_fields?.name ?? "name"]) };
  if (response === undefined || account === undefined) return undefined;
  const base = resolveBase(manifest, recorded?.connection);
  if (!base.ok) return undefined;
  return { host: new URL(base.base.origin).hostname, response, account };
}

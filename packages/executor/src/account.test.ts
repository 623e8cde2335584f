import { loadRegistry } from "@eleven-integrations/loader";
import { describe, expect, it } from "vitest";
import { accountFromIdentity, IdentityError } from "./account.js";
import type { Envelope } from "./envelope.js";

const manifest = (identityFields?: Record<string, string>) => {
  const json = {
    schema: 1,
    id: "example",
    name: "Example",
    category: "development",
    auth: {
      kind: "pat",
      base: "https://api.example.com",
      authorization: "Bearer",
      pat_help: "https://example.com/tokens",
      identity: "users.me",
      ...(identityFields === undefined ? {} : { identity_fields: identityFields }),
    },
    ops: [{ id: "users.me", label: "Who you are", access: "read", method: "GET", path: "/user", pick: { fields: ["id", "name", "login", "owner.email"] } }],
  };
  const loaded = loadRegistry([{ file: "example.json", json }]).get("example");
  if (loaded === undefined) throw new Error("did not load");
  return loaded;
};
const ok = (data: unknown): Envelope => ({ status: "ok", integration: "example", op: "users.me", http_status: 200, data });

describe("accountFromIdentity", () => {
  it("reads id and name; a numeric id is written in decimal", () => {
    expect(accountFromIdentity(manifest(), ok({ id: 583231, name: "The Octocat", login: "octocat" }))).toEqual({
      ok: true,
      account: { id: "583231", name: "The Octocat" },
    });
    expect(accountFromIdentity(manifest(), ok({ id: 9007199254740991, name: "x" }))).toMatchObject({ account: { id: "9007199254740991" } });
  });

  it("reads the picked fields identity_fields names, nested ones by their flattened key", () => {
    expect(accountFromIdentity(manifest({ name: "login" }), ok({ id: "U1", login: "octocat" }))).toEqual({ ok: true, account: { id: "U1", name: "octocat" } });
    expect(accountFromIdentity(manifest({ id: "login", name: "owner.email" }), ok({ login: "octocat", "owner.email": "o@example.com" }))).toEqual({
      ok: true,
      account: { id: "octocat", name: "o@example.com" },
    });
  });

  it.each([
    ["a missing id", { name: "x" }, /account id \("id" is missing\)/],
    ["a missing name", { id: 1 }, /account name \("name" is missing\)/],
    ["a null name", { id: 1, name: null }, /is null/],
    ["an empty id", { id: " ", name: "x" }, /is empty/],
    ["a fractional id", { id: 1.5, name: "x" }, /not a safe integer/],
    ["an unsafe integer id", { id: 2 ** 60, name: "x" }, /not a safe integer/],
    ["an object id", { id: { value: 1 }, name: "x" }, /is a object/],
    ["an over-long name", { id: 1, name: "n".repeat(257) }, /longer than 256/],
    ["an inherited id", Object.assign(Object.create({ id: 1 }) as object, { name: "x" }), /is missing/],
  ])("is a typed identity_incomplete failure for %s", (_name, data, message) => {
    const result = accountFromIdentity(manifest(), ok(data));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(IdentityError.isInstance(result.error)).toBe(true);
    expect(result.error).toMatchObject({ code: "identity_incomplete", message: expect.stringMatching(message) });
  });

  it("is identity_failed for an error envelope, an answer of another op, or a list", () => {
    const refused: Envelope = {
      status: "error",
      integration: "example",
      op: "users.me",
      error: { code: "unauthorized", message: "no", next_action: "reconnect" },
    };
    expect(accountFromIdentity(manifest(), refused)).toMatchObject({ ok: false, error: { code: "identity_failed" } });
    expect(accountFromIdentity(manifest(), { ...ok({ id: 1, name: "x" }), op: "repos.list" })).toMatchObject({ ok: false, error: { code: "identity_failed" } });
    expect(accountFromIdentity(manifest(), ok([{ id: 1, name: "x" }]))).toMatchObject({ ok: false, error: { code: "identity_incomplete" } });
  });

  it("is identity_not_declared for a manifest without auth.identity", () => {
    const plain = { ...manifest(), auth: { ...manifest().auth, identity: undefined } };
    expect(accountFromIdentity(plain, ok({ id: 1, name: "x" }))).toMatchObject({ ok: false, error: { code: "identity_not_declared" } });
  });
});

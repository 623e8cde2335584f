import { parseManifest, type Manifest } from "@eleven-integrations/schema";
import { describe, expect, it } from "vitest";
import { checkOperation } from "./check-operation.js";
import type { OpenApiDocument } from "./load-openapi.js";

/** A description in the shape Google's converted discovery documents and Zendesk's own take. */
function document(servers: OpenApiDocument["servers"], paths: OpenApiDocument["paths"]): OpenApiDocument {
  return { openapi: "3.0.0", servers, paths, file: "inline.json" };
}

function manifest(base: string, op: Record<string, unknown>, extra: Record<string, unknown> = {}): Manifest {
  const parsed = parseManifest({
    schema: 1,
    id: "example",
    name: "Example",
    category: "development",
    auth: { kind: "pat", base, authorization: "Bearer", pat_help: "https://example.com/tokens", ...extra },
    ops: [{ label: "An op", access: "read", method: "GET", ...op }],
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.manifest;
}

const ok = { responses: { "200": { description: "ok" } } };

describe("openapi check: segment suffixes", () => {
  const sheets = document([{ url: "https://sheets.googleapis.com/" }], {
    "/v4/spreadsheets/{spreadsheetId}": { get: { ...ok, parameters: [{ name: "spreadsheetId", in: "path", required: true, schema: { type: "string" } }] } },
    "/v4/spreadsheets/{spreadsheetId}:getByDataFilter": {
      get: { ...ok, parameters: [{ name: "spreadsheetId", in: "path", required: true, schema: { type: "string" } }] },
    },
  });
  const op = (path: string) => ({ id: "sheets.get", path, args: { spreadsheet_id: { required: true } } });

  it("lines {spreadsheet_id}:getByDataFilter up with the spec's {spreadsheetId}:getByDataFilter", () => {
    const m = manifest("https://sheets.googleapis.com/v4", op("/spreadsheets/{spreadsheet_id}:getByDataFilter"));
    expect(checkOperation(sheets, m, m.ops[0] as Manifest["ops"][number])).toEqual({
      operation: "GET /v4/spreadsheets/{spreadsheetId}:getByDataFilter",
      mismatches: [],
    });
  });

  it("finds no operation for a suffix the spec does not have", () => {
    const m = manifest("https://sheets.googleapis.com/v4", op("/spreadsheets/{spreadsheet_id}:clear"));
    expect(checkOperation(sheets, m, m.ops[0] as Manifest["ops"][number]).mismatches).toMatchObject([{ rule: "operation" }]);
  });
});

describe("openapi check: tenant hosts", () => {
  const zendesk = document([{ url: "https://{subdomain}.zendesk.com", variables: { subdomain: { default: "example" } } }], {
    "/api/v2/tickets/{ticket_id}": { get: { ...ok, parameters: [{ name: "ticket_id", in: "path", required: true, schema: { type: "integer" } }] } },
  });
  const tenant = { tenant: { subdomain: { pattern: "[a-z0-9-]+" } } };
  const op = { id: "tickets.get", path: "/tickets/{ticket_id}", args: { ticket_id: { required: true, type: "integer", pattern: "[0-9]+" } } };

  it("accepts a tenant base whose fixed suffix the spec serves", () => {
    const m = manifest("https://{subdomain}.zendesk.com/api/v2", op, tenant);
    expect(checkOperation(zendesk, m, m.ops[0] as Manifest["ops"][number]).mismatches).toEqual([]);
  });

  it("refuses a tenant base on another suffix", () => {
    const m = manifest("https://{subdomain}.example.com/api/v2", op, tenant);
    expect(checkOperation(zendesk, m, m.ops[0] as Manifest["ops"][number]).mismatches).toMatchObject([{ rule: "host" }]);
  });
});

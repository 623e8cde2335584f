// Commands that hold a manifest against its provider's published description (OpenAPI, GraphQL).
import { defineCommand } from "./declare.js";

const ALLOW = { value: "file", help: "an allow-list of known differences, each with its reason" } as const;
const JSON_OUTPUT = { switch: true, help: "print the report as JSON" } as const;

export const openapiCheckCommand = defineCommand({
  words: ["openapi", "check"],
  audience: "spec",
  summary: "check every op against the provider's OpenAPI description",
  positionals: { usage: "<manifest>", min: 1, message: "openapi check takes one manifest file: integrations openapi check <manifest> --spec <file>" },
  flags: { spec: { value: "file", required: true, help: "the OpenAPI description (JSON or YAML)" }, allow: ALLOW, json: JSON_OUTPUT },
  run: async ({ flags, positionals }, io) =>
    (await import("../commands/openapi-check.js")).openapiCheck(
      { manifest: positionals[0] as string, spec: flags.spec, allow: flags.allow, json: flags.json },
      io,
    ),
});

export const openapiImportCommand = defineCommand({
  words: ["openapi", "import"],
  audience: "spec",
  summary: "print a draft op for one operation of the description",
  positionals: { usage: "", min: 0, message: "openapi import takes no positional arguments" },
  flags: {
    spec: { value: "file", required: true, help: "the OpenAPI description (JSON or YAML)" },
    operation: { value: "operationId|METHOD /path", required: true, help: "the operation to draft" },
    id: { value: "op id", help: "the draft op's id (default: derived from the operation)" },
    json: JSON_OUTPUT,
  },
  run: async ({ flags }, io) =>
    (await import("../commands/openapi-import.js")).openapiImport({ spec: flags.spec, operation: flags.operation, id: flags.id, json: flags.json }, io),
});

export const graphqlCheckCommand = defineCommand({
  words: ["graphql", "check"],
  audience: "spec",
  summary: "check every op's GraphQL query against the schema",
  positionals: { usage: "<manifest>", min: 1, message: "graphql check takes one manifest file: integrations graphql check <manifest> --schema <file.graphql>" },
  flags: { schema: { value: "file.graphql", required: true, help: "the provider's GraphQL schema (SDL)" }, allow: ALLOW, json: JSON_OUTPUT },
  run: async ({ flags, positionals }, io) =>
    (await import("../commands/graphql-check.js")).graphqlCheck(
      { manifest: positionals[0] as string, schema: flags.schema, allow: flags.allow, json: flags.json },
      io,
    ),
});

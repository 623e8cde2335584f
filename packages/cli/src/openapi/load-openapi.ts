import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import $RefParser from "@apidevtools/json-schema-ref-parser";
import { SpecError } from "./spec-error.js";
import { isObject, type Schema } from "./schema-shape.js";

/** An OpenAPI 3.0/3.1 document with every `$ref` replaced by what it points at (cycles kept as object cycles). */
export interface OpenApiDocument {
  readonly openapi: string;
  readonly servers: readonly { url: string; variables?: Record<string, { default?: string }> }[];
  readonly paths: Record<string, Schema>;
  readonly file: string;
}

/**
 * Reads an OpenAPI description (JSON or YAML) and resolves its `$ref`s with
 * json-schema-ref-parser. References are resolved from the file and files beside it
 * only: HTTP resolution is off, so checking a spec never reaches the network.
 */
export async function loadOpenApi(file: string, cwd: string): Promise<OpenApiDocument> {
  const path = resolve(cwd, file);
  try {
    await readFile(path);
  } catch (error) {
    throw new SpecError("unreadable_spec", `cannot read the spec ${file}: ${(error as NodeJS.ErrnoException).code ?? "error"}`);
  }
  let document: unknown;
  try {
    document = await $RefParser.dereference(path, { resolve: { http: false }, dereference: { circular: true } });
  } catch (error) {
    throw new SpecError("unreadable_spec", `cannot parse the spec ${file}: ${(error as Error).message.split("\n")[0]}`);
  }
  if (!isObject(document)) throw new SpecError("not_openapi", `${file} is not an OpenAPI document`);
  const version = document.openapi;
  if (typeof version !== "string" || !/^3\.[01]\./.test(version)) {
    const swagger = typeof document.swagger === "string" ? ` (it is Swagger ${document.swagger}; convert it to OpenAPI 3 first)` : "";
    throw new SpecError("not_openapi", `${file} is not OpenAPI 3.0 or 3.1${swagger}`);
  }
  if (!isObject(document.paths)) throw new SpecError("not_openapi", `${file} has no paths`);
  const servers = Array.isArray(document.servers) ? document.servers.filter(isObject) : [];
  return {
    openapi: version,
    servers: servers.map((server) => ({
      url: String(server.url ?? "/"),
      ...(isObject(server.variables) ? { variables: server.variables as Record<string, { default?: string }> } : {}),
    })),
    paths: document.paths as Record<string, Schema>,
    file,
  };
}

import { readFileSync } from "node:fs";
import SwaggerParser from "@apidevtools/swagger-parser";
import type { OpenAPIV3_1 } from "openapi-types";
import { describe, expect, it } from "vitest";
import { sidecarOpenApi } from "./openapi.js";
import { OPENAPI_PATH, SIDECAR_ROUTES } from "./routes.js";

const generated = `${JSON.stringify(sidecarOpenApi(), null, 2)}\n`;

describe("openapi.json", () => {
  it("is the committed output of the zod schemas (run `pnpm --filter @eleven-integrations/sidecar-protocol generate` after changing them)", () => {
    expect(readFileSync(new URL("../openapi.json", import.meta.url), "utf8")).toBe(generated);
  });

  it("is what the build wrote to dist, which the package ships", () => {
    expect(readFileSync(new URL("../dist/openapi.json", import.meta.url), "utf8")).toBe(generated);
  });

  it("is a valid OpenAPI 3.1 document for a standard validator, every $ref resolving", async () => {
    const document = JSON.parse(generated) as OpenAPIV3_1.Document;
    const validated = (await SwaggerParser.validate(structuredClone(document))) as OpenAPIV3_1.Document;
    expect(validated.openapi).toBe("3.1.0");
    const dereferenced = (await SwaggerParser.dereference(structuredClone(document))) as OpenAPIV3_1.Document;
    expect(JSON.stringify(dereferenced.paths)).not.toContain("$ref");
  });

  it("describes every route of the contract, each behind the caller token", () => {
    const document = sidecarOpenApi() as {
      paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
      security: unknown;
    };
    const described = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => `${method.toUpperCase()} ${path} ${operation.operationId}`),
    );
    expect(described.sort()).toEqual(
      [
        ...Object.values(SIDECAR_ROUTES).map((route) => `${route.method} ${route.path} ${route.name}`),
        `GET ${OPENAPI_PATH} openapi`,
        "GET /healthz health",
        "GET /readyz ready",
      ].sort(),
    );
    expect(document.security).toEqual([{ callerToken: [] }]);
    for (const methods of Object.values(document.paths)) for (const operation of Object.values(methods)) expect(operation.responses).toHaveProperty("401");
  });

  it("closes every described object to unknown keys except the free ones (an ok answer's data)", () => {
    const schemas = (sidecarOpenApi() as { components: { schemas: Record<string, unknown> } }).components.schemas;
    const text = JSON.stringify(schemas);
    expect(text).not.toContain('"additionalProperties":true');
    const open: string[] = [];
    const walk = (node: unknown, path: string) => {
      if (typeof node !== "object" || node === null) return;
      const record = node as Record<string, unknown>;
      if (record["type"] === "object" && record["properties"] !== undefined && record["additionalProperties"] !== false) open.push(path);
      for (const [key, value] of Object.entries(record)) walk(value, `${path}/${key}`);
    };
    walk(schemas, "");
    expect(open).toEqual([]);
  });

  it("states the rules a validator can check: the op id pattern, the search text counted in code points, the grant count", () => {
    const schemas = (sidecarOpenApi() as { components: { schemas: Record<string, { properties: Record<string, Record<string, unknown>> }> } }).components
      .schemas;
    expect(schemas["RunBody"]?.properties["op"]).toMatchObject({ pattern: "^[a-z][a-z0-9_]*\\.[a-z][a-z0-9_]*$", maxLength: 100 });
    expect(schemas["SearchBody"]?.properties["q"]).toMatchObject({ maxLength: 200 });
    expect(schemas["SearchBody"]?.properties["grants"]).toMatchObject({ maxItems: 32 });
  });
});

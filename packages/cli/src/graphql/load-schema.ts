import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { buildClientSchema, buildSchema, type GraphQLSchema, type IntrospectionQuery } from "graphql";
import { SpecError } from "../openapi/spec-error.js";

/** Reads a GraphQL schema: SDL (`.graphql`), or an introspection result (`.json`, `{ data?: { __schema } }`). */
export async function loadGraphqlSchema(file: string, cwd: string): Promise<GraphQLSchema> {
  let text: string;
  try {
    text = await readFile(resolve(cwd, file), "utf8");
  } catch (error) {
    throw new SpecError("unreadable_spec", `cannot read the schema ${file}: ${(error as NodeJS.ErrnoException).code ?? "error"}`);
  }
  try {
    if (text.trimStart().startsWith("{")) {
      const json = JSON.parse(text) as { data?: IntrospectionQuery } & Partial<IntrospectionQuery>;
      return buildClientSchema((json.data ?? json) as IntrospectionQuery);
    }
    return buildSchema(text);
  } catch (error) {
    throw new SpecError("invalid_schema", `${file} is not a GraphQL schema: ${(error as Error).message.split("\n")[0]}`);
  }
}

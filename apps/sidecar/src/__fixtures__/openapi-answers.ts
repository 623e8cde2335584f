// Checks the sidecar's answers against its OpenAPI description (the protocol package's
// openapi.json, what GET /v1/openapi.json serves) with Ajv's JSON Schema 2020-12 validator:
// an answer the description does not allow, or a status it does not list, is a violation.
import { createRequire } from "node:module";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";

interface Description {
  paths: Record<string, Record<string, { responses: Record<string, { $ref?: string; content?: Record<string, { schema: object }> }> }>>;
  components: { schemas: Record<string, object>; responses: Record<string, { content: Record<string, { schema: object }> }> };
}

const DOCUMENT_ID = "sidecar-openapi";
export const description = createRequire(import.meta.url)("@eleven-integrations/sidecar-protocol/openapi.json") as Description;

const ajv = new Ajv2020({ allErrors: true, strict: false });
// The components live where the description's `$ref`s point: `#/components/schemas/<name>` of one document.
ajv.addSchema({ $id: DOCUMENT_ID, components: { schemas: description.components.schemas } });
const compiled = new Map<string, ValidateFunction>();

function validatorFor(schema: object): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (validate === undefined) {
    const ref = (schema as { $ref?: string }).$ref;
    validate = ajv.compile(ref === undefined ? schema : { $ref: `${DOCUMENT_ID}${ref}` });
    compiled.set(key, validate);
  }
  return validate;
}

/** The schema the description gives an answer, or why there is none. */
function answerSchema(method: string, route: string | undefined, status: number): { schema: object } | { problem: string } {
  // An unknown route's 404 and the guards' refusals before routing share the refusal body.
  if (route === undefined) return { schema: { $ref: "#/components/schemas/HttpErrorBody" } };
  const operation = description.paths[route]?.[method.toLowerCase()];
  if (operation === undefined) return { problem: `${method} ${route} is not described` };
  let response = operation.responses[String(status)];
  if (response === undefined) return { problem: `${method} ${route} answered ${status}, a status its description does not list` };
  if (response.$ref !== undefined) response = description.components.responses[response.$ref.split("/").at(-1) ?? ""];
  const schema = response?.content?.["application/json"]?.schema;
  return schema === undefined ? { problem: `${method} ${route} ${status} has no JSON schema` } : { schema };
}

/** Every way `body` (the parsed answer) departs from the description of `method route` answering `status`; empty when it fits. */
export function answerViolations(method: string, route: string | undefined, status: number, body: unknown): string[] {
  const found = answerSchema(method, route, status);
  if ("problem" in found) return [found.problem];
  const validate = validatorFor(found.schema);
  if (validate(body)) return [];
  return (validate.errors ?? []).map(
    (error) =>
      `${method} ${route ?? "(no route)"} ${status}: ${error.instancePath || "/"} ${error.message ?? "is invalid"}${error.params === undefined ? "" : ` ${JSON.stringify(error.params)}`}`,
  );
}

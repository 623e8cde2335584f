import { DEFAULT_MAX_LENGTH } from "@eleven-integrations/schema";
import type { PaletteArg, PaletteOperation } from "@eleven-integrations/sidecar-protocol";

/** The inputs every write tool adds to its args: the member's signed tap. */
export const CONFIRMATION_INPUT = "confirmation";
/** The input every paging tool adds to its args: the cursor a previous call answered. */
export const PAGE_INPUT = "page";

interface JsonSchemaString {
  type: "string";
  description?: string;
  maxLength: number;
  pattern?: string;
  enum?: string[];
}

export interface ToolInputSchema {
  type: "object";
  properties: Record<string, JsonSchemaString>;
  required?: string[];
  additionalProperties: false;
  [key: string]: unknown;
}

/**
 * The JSON Schema of a tool's input: one string per arg with its description,
 * `maxLength` (the manifest's `max_length`, code points, default 256),
 * `pattern` anchored (a manifest pattern matches the whole value) and `enum`;
 * the required args; `page` for a paging op (in place of its cursor arg) and
 * `confirmation` for a write.
 */
export function toolInputSchema(operation: PaletteOperation): ToolInputSchema {
  const properties: Record<string, JsonSchemaString> = {};
  const required: string[] = [];
  for (const [name, arg] of Object.entries(operation.args)) {
    // The cursor arg of a paging op is filled from `page`, never by hand.
    if (operation.page !== undefined && name === operation.page.arg) continue;
    properties[name] = argSchema(arg);
    if (arg.required === true) required.push(name);
  }
  if (operation.page !== undefined && !(PAGE_INPUT in properties)) {
    properties[PAGE_INPUT] = {
      type: "string",
      maxLength: 1024,
      description: "The next_page of the previous result, to get the page after it. Leave out for the first page.",
    };
  }
  if (operation.access === "write" && !(CONFIRMATION_INPUT in properties)) {
    properties[CONFIRMATION_INPUT] = {
      type: "string",
      maxLength: 4096,
      description:
        "The member's confirmation (ec1...). Call first without it: the answer is the line the member must confirm. Then call again with the same args and the confirmation they signed.",
    };
  }
  return { type: "object", properties, ...(required.length === 0 ? {} : { required }), additionalProperties: false };
}

function argSchema(arg: PaletteArg): JsonSchemaString {
  const schema: JsonSchemaString = { type: "string", maxLength: arg.max_length ?? DEFAULT_MAX_LENGTH };
  if (arg.description !== undefined) schema.description = arg.description;
  if (arg.pattern !== undefined) schema.pattern = `^(?:${arg.pattern})$`;
  if (arg.enum !== undefined) schema.enum = [...arg.enum];
  return schema;
}

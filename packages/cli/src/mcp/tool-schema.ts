import { DEFAULT_MAX_LENGTH, isListArgType } from "@eleven-integrations/schema";
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

/** A list arg: an array of at most `max_items` strings, each like a string arg. */
interface JsonSchemaList {
  type: "array";
  description?: string;
  maxItems: number;
  items: JsonSchemaString;
}

/** A file arg: `{ name, content_type, base64 }` or `{ sha256 }`. */
interface JsonSchemaFile {
  description?: string;
  oneOf: Record<string, unknown>[];
}

type JsonSchemaArg = JsonSchemaString | JsonSchemaList | JsonSchemaFile;

const FILE_SCHEMAS: Record<string, unknown>[] = [
  {
    type: "object",
    properties: {
      name: { type: "string", maxLength: 255 },
      content_type: { type: "string", maxLength: 255 },
      base64: { type: "string", description: "The file's bytes in standard padded base64, at most 8 MiB decoded." },
    },
    required: ["name", "content_type", "base64"],
    additionalProperties: false,
  },
  {
    type: "object",
    properties: { sha256: { type: "string", pattern: "^[0-9a-f]{64}$", description: "A file in the sidecar's upload folder, by the SHA-256 of its bytes." } },
    required: ["sha256"],
    additionalProperties: false,
  },
];

export interface ToolInputSchema {
  type: "object";
  properties: Record<string, JsonSchemaArg>;
  required?: string[];
  additionalProperties: false;
  [key: string]: unknown;
}

/**
 * The JSON Schema of a tool's input: one string per arg (an array of them for a list
 * arg, with `maxItems`; a file object for a file arg) with its description,
 * `maxLength` (the manifest's `max_length`, code points, default 256),
 * `pattern` anchored (a manifest pattern matches the whole value) and `enum`;
 * the required args; `page` for a paging op (in place of its cursor arg) and
 * `confirmation` for a write.
 */
export function toolInputSchema(operation: PaletteOperation): ToolInputSchema {
  const properties: Record<string, JsonSchemaArg> = {};
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

function argSchema(arg: PaletteArg): JsonSchemaArg {
  if (arg.type === "file") return { ...(arg.description === undefined ? {} : { description: arg.description }), oneOf: FILE_SCHEMAS };
  const item = stringSchema(arg);
  if (!isListArgType(arg.type)) {
    if (arg.description !== undefined) item.description = arg.description;
    return item;
  }
  return { type: "array", ...(arg.description === undefined ? {} : { description: arg.description }), maxItems: arg.max_items ?? 0, items: item };
}

/** A string arg, or each item of a list arg. */
function stringSchema(arg: PaletteArg): JsonSchemaString {
  const schema: JsonSchemaString = { type: "string", maxLength: arg.max_length ?? DEFAULT_MAX_LENGTH };
  if (arg.pattern !== undefined) schema.pattern = `^(?:${arg.pattern})$`;
  if (arg.enum !== undefined) schema.enum = [...arg.enum];
  return schema;
}

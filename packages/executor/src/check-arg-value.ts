import type { CompiledArg } from "@eleven-integrations/loader";
import { argTypeProblem, base64DecodedLength, fileArgValueSchema, isListArgType, MAX_FILE_BYTES } from "@eleven-integrations/schema";
import { pathArgProblem } from "./path-arg.js";
import { hasLoneSurrogate } from "./unsafe-characters.js";

/** The problem with one given value against its declaration, or undefined. */
export function checkArgValue(arg: CompiledArg, value: unknown): string | undefined {
  if (isListArgType(arg.type)) return listProblem(arg, value);
  if (arg.type === "file") return fileProblem(value);
  if (typeof value !== "string") return "must be a string";
  const problem = stringProblem(arg, value);
  if (problem !== undefined || arg.type !== "path") return problem;
  return pathArgProblem(value);
}

/** A string value (or one item of a list) against the arg's bounds and its (item) type. */
function stringProblem(arg: CompiledArg, value: string): string | undefined {
  if (exceedsCodePoints(value, arg.maxLength)) return `must be at most ${arg.maxLength} characters`;
  if (hasLoneSurrogate(value)) return "must not hold a lone surrogate";
  if (arg.enum !== undefined && !arg.enum.has(value)) return `must be one of ${[...arg.enum].map((item) => JSON.stringify(item)).join(", ")}`;
  if (arg.pattern !== undefined && !arg.pattern.test(value)) return "does not match the pattern the op declares";
  return arg.type === "string" ? undefined : argTypeProblem(value, arg.type);
}

/** A list arg: a JSON array of at most `max_items` strings, each checked like a string arg of the item type. */
function listProblem(arg: CompiledArg, value: unknown): string | undefined {
  if (!Array.isArray(value)) return "must be a list (a JSON array of strings)";
  const maxItems = arg.maxItems ?? 0;
  if (value.length > maxItems) return `must hold at most ${maxItems} items`;
  for (let index = 0; index < value.length; index += 1) {
    const item: unknown = value[index];
    if (typeof item !== "string") return `item ${index} must be a string`;
    const problem = stringProblem(arg, item);
    if (problem !== undefined) return `item ${index} ${problem}`;
  }
  return undefined;
}

/** A file arg: `{ name, content_type, base64 }` (at most 8 MiB decoded) or `{ sha256 }`. */
function fileProblem(value: unknown): string | undefined {
  const parsed = fileArgValueSchema.safeParse(value);
  if (!parsed.success)
    return "must be a file: { name, content_type, base64 } (standard padded base64, at most 8 MiB decoded) or { sha256 } (64 lower-case hex digits)";
  if ("base64" in parsed.data && base64DecodedLength(parsed.data.base64) > MAX_FILE_BYTES) return `must be at most ${MAX_FILE_BYTES} bytes decoded`;
  return undefined;
}

/** Whether `value` holds more than `max` code points, without building an array of them. */
function exceedsCodePoints(value: string, max: number): boolean {
  if (value.length <= max) return false;
  let count = 0;
  for (let index = 0; index < value.length; index += 1) {
    const unit = value.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < value.length) {
      const next = value.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index += 1;
    }
    count += 1;
    if (count > max) return true;
  }
  return false;
}

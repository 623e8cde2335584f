import type { CompiledArg } from "@eleven-integrations/loader";
import { argTypeProblem } from "@eleven-integrations/schema";
import { hasLoneSurrogate } from "./unsafe-characters.js";

/** The problem with one given value against its declaration, or undefined. */
export function checkArgValue(arg: CompiledArg, value: unknown): string | undefined {
  if (typeof value !== "string") return "must be a string";
  if (exceedsCodePoints(value, arg.maxLength)) return `must be at most ${arg.maxLength} characters`;
  if (hasLoneSurrogate(value)) return "must not hold a lone surrogate";
  if (arg.enum !== undefined && !arg.enum.has(value)) return `must be one of ${[...arg.enum].map((item) => JSON.stringify(item)).join(", ")}`;
  if (arg.pattern !== undefined && !arg.pattern.test(value)) return "does not match the pattern the op declares";
  return arg.type === "string" ? undefined : argTypeProblem(value, arg.type);
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

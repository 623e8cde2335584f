import type { CompiledOperation } from "@eleven-integrations/loader";
import { encodeForm } from "./encode-form.js";

export interface RenderedBody {
  readonly body: string;
  readonly contentType: string;
}

/** The request body from the op's template and the checked args, or undefined for an op without one. */
export function renderBody(operation: CompiledOperation, args: Readonly<Record<string, string>>): RenderedBody | undefined {
  if (operation.renderBody === undefined) return undefined;
  const tree = operation.renderBody(args);
  return operation.encoding === "form"
    ? { body: encodeForm(tree), contentType: "application/x-www-form-urlencoded" }
    : { body: JSON.stringify(tree), contentType: "application/json" };
}

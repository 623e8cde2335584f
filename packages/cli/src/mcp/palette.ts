/** An arg as a manifest declares it (what `POST /v1/ops` passes through). */
export interface PaletteArg {
  required?: boolean;
  description?: string;
  max_length?: number;
  pattern?: string;
  enum?: string[];
}

/** One op of a grant's palette, as `POST /v1/ops` answers it. */
export interface PaletteOperation {
  id: string;
  label: string;
  access: "read" | "write";
  args: Record<string, PaletteArg>;
  confirm?: string;
  destructive?: boolean;
  /**
   * Present when the op pages: `arg` is the arg that carries the cursor, absent when the op
   * takes none (its pages continue through another op, `page.next_op`, or a next path); a
   * run passes `page` (an answer's `next_page`) instead.
   */
  page?: { arg?: string };
}

/** `POST /v1/ops`'s answer for one grant. */
export type PaletteAnswer =
  | { status: "ok"; integration: string; access: "read" | "write"; ops: PaletteOperation[] }
  | { status: "error"; integration: string | null; error: { code: string; message: string; next_action: string } };

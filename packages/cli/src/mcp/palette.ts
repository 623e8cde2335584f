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
  /** Present when the op pages: `arg` carries the cursor; a run passes `page` (the `next_page` of the previous answer) instead. */
  page?: { arg: string };
}

/** `POST /v1/ops`'s answer for one grant. */
export type PaletteAnswer =
  | { status: "ok"; integration: string; access: "read" | "write"; ops: PaletteOperation[] }
  | { status: "error"; integration: string | null; error: { code: string; message: string; next_action: string } };

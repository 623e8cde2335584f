import { markedError } from "@eleven-integrations/schema";

export interface RegistryIssue {
  /** The manifest file (or folder) the problem is in. */
  file: string;
  /** JSON path inside the file, such as `ops[2].confirm`; `$` for the whole file. */
  path: string;
  message: string;
}

/** Thrown when any manifest is bad: the registry then loads nothing. */
export class RegistryError extends markedError("RegistryError") {
  readonly code = "invalid_registry" as const;
  readonly issues: readonly RegistryIssue[];

  constructor(issues: readonly RegistryIssue[]) {
    const count = issues.length;
    super(
      `the registry did not load: ${count} problem${count === 1 ? "" : "s"}\n` +
        issues.map((issue) => `${issue.file}: ${issue.path}: ${issue.message}`).join("\n"),
    );
    this.issues = Object.freeze(issues.map((issue) => Object.freeze({ ...issue })));
  }
}

const MARKER = Symbol.for("eleven-integrations.error.RegistryError");

export interface RegistryIssue {
  /** The manifest file (or folder) the problem is in. */
  file: string;
  /** JSON path inside the file, such as `ops[2].confirm`; `$` for the whole file. */
  path: string;
  message: string;
}

/** Thrown when any manifest is bad: the registry then loads nothing. */
export class RegistryError extends Error {
  readonly code = "invalid_registry" as const;
  readonly issues: readonly RegistryIssue[];
  private readonly [MARKER] = true;

  constructor(issues: readonly RegistryIssue[]) {
    const count = issues.length;
    super(
      `the registry did not load: ${count} problem${count === 1 ? "" : "s"}\n` +
        issues.map((issue) => `${issue.file}: ${issue.path}: ${issue.message}`).join("\n"),
    );
    this.name = "RegistryError";
    this.issues = Object.freeze(issues.map((issue) => Object.freeze({ ...issue })));
  }

  static isInstance(value: unknown): value is RegistryError {
    return typeof value === "object" && value !== null && MARKER in value;
  }
}

/** Where a command reads and writes; tests pass their own. */
export interface CommandIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

export const processIo: CommandIo = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  env: process.env,
  cwd: process.cwd(),
};

const MARKER = Symbol.for("eleven-integrations.error.UsageError");

/** A command line that cannot run as written: exit 2 with what was wrong. */
export class UsageError extends Error {
  readonly code = "usage" as const;
  private readonly [MARKER] = true;
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
  static isInstance(value: unknown): value is UsageError {
    return typeof value === "object" && value !== null && MARKER in value;
  }
}

import { markedError } from "@eleven-integrations/schema/marked-error";

/** Where a command reads and writes; tests pass their own. */
export interface CommandIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** All of standard input, for `--grant -` and the like; absent when there is none. */
  readonly readStdin?: () => Promise<string>;
  /** Asks a person a question and resolves to their answer, or to undefined when no one can answer (no terminal). */
  readonly ask?: (question: string) => Promise<string | undefined>;
}

async function readAllStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function askOnTerminal(question: string): Promise<string | undefined> {
  if (process.stdin.isTTY !== true || process.stderr.isTTY !== true) return undefined;
  const { createInterface } = await import("node:readline/promises");
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await prompt.question(question);
  } finally {
    prompt.close();
  }
}

export const processIo: CommandIo = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  env: process.env,
  cwd: process.cwd(),
  readStdin: readAllStdin,
  ask: askOnTerminal,
};

/** A command line that cannot run as written: exit 2 with what was wrong. */
export class UsageError extends markedError("UsageError") {
  readonly code = "usage" as const;
  constructor(message: string) {
    super(message);
  }
}

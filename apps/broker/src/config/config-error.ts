import { markedError } from "@eleven-integrations/schema";

export interface ConfigIssue {
  /** Where the value comes from: a key path, an environment variable, or `file: key`. */
  path: string;
  message: string;
}

export type ConfigResult<T> = { ok: true; value: T } | { ok: false; issues: ConfigIssue[] };

/** A configuration the broker refuses to start with; `issues` names every problem, never a secret value. */
export class BrokerConfigError extends markedError("BrokerConfigError") {
  readonly code = "invalid_config" as const;
  readonly issues: readonly ConfigIssue[];

  constructor(issues: readonly ConfigIssue[]) {
    super(`the broker configuration is not valid:\n${issues.map((issue) => `  ${issue.path}: ${issue.message}`).join("\n")}`);
    this.issues = issues;
  }
}

/** One reason an op's arguments were refused, naming the arg but never echoing its value. */
export interface ArgProblem {
  readonly arg: string;
  readonly message: string;
}

const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;
const MAX_NAME_LENGTH = 64;

export function describeArgProblems(problems: readonly ArgProblem[]): string {
  return problems.map((problem) => (problem.arg === "" ? problem.message : `arg ${quoteName(problem.arg)} ${problem.message}`)).join("; ");
}

/** An arg name as a person can read it: a caller's unknown name may hold anything. */
function quoteName(name: string): string {
  const shown = name.length > MAX_NAME_LENGTH ? `${name.slice(0, MAX_NAME_LENGTH)}…` : name;
  return `"${shown.replace(INVISIBLE, "\uFFFD")}"`;
}

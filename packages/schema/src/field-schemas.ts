import { z } from "zod";
import { dotPathProblem } from "./dot-path.js";
import { notBlank, plainTextProblem } from "./plain-text.js";
import { problemCheck, testCheck } from "./rule-checks.js";

// The field schemas an op and an auth block both build on.

export const ARG_NAME = /^[a-z][a-z0-9_]*$/;

export const DEFAULT_MAX_LENGTH = 256;
export const MAX_MAX_LENGTH = 4096;

/** Text a person reads (names, labels, confirm lines, help): plain, see `plainTextProblem`. */
export const plainText = (max: number) => z.string().max(max).check(problemCheck(plainTextProblem));

export const text = (max: number) => plainText(max).check(testCheck(notBlank, "must not be empty"));

export const dotPath = z.string().check(problemCheck(dotPathProblem));

export const regexPattern = z
  .string()
  .min(1)
  .check(
    problemCheck((pattern: string) => {
      try {
        new RegExp(pattern, "u");
        return undefined;
      } catch (error) {
        return `is not a valid regular expression with the u flag: ${(error as Error).message}`;
      }
    }),
  );

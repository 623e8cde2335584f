// Every answer a test app gave must be one its OpenAPI description allows (src/__fixtures__/test-app.ts records them).
import { afterEach, expect } from "vitest";
import { describedAnswerViolations } from "./src/__fixtures__/test-app.js";

afterEach(() => {
  const violations = describedAnswerViolations.splice(0);
  expect(violations, "answers the sidecar's OpenAPI description does not allow").toEqual([]);
});

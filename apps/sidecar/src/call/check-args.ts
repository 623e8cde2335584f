import type { RunAnswer } from "../run/answers.js";
import type { AdmittedCall } from "./call.js";
import { providerRequest } from "./send.js";

/**
 * The third step: the args are the op's. A write's are checked here, before it
 * asks for a tap, so a member never confirms a call that cannot run. A read's
 * are the executor's own first check inside `send`, which never sends a request
 * that fails it: checked once, the request built once.
 */
export function checkArgs(call: AdmittedCall): RunAnswer | undefined {
  if (call.operation.access === "read") return undefined;
  return call.snapshot.executor.validate(providerRequest(call)) ?? undefined;
}

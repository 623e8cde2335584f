import { errorEnvelope, type Envelope } from "./envelope.js";
import { failure, type FailureContext } from "./failure.js";

/**
 * The envelope if its serialised form (`JSON.stringify`, UTF-8) fits `maxResultBytes`,
 * else `result_too_large`: a result is never cut. A value too deep to serialise is
 * `bad_response` (the depth bounds of `pick` and of bodies without it normally refuse
 * such a body earlier).
 */
export function fitResult(envelope: Envelope, maxResultBytes: number, context: FailureContext): Envelope {
  if (envelope.status === "error") return envelope;
  let size: number;
  try {
    size = Buffer.byteLength(JSON.stringify(envelope));
  } catch {
    return errorEnvelope(envelope, failure("bad_response", "the answer nests too deep to pass on", context, { http_status: envelope.http_status }));
  }
  if (size <= maxResultBytes) return envelope;
  return errorEnvelope(
    envelope,
    failure("result_too_large", `the result is ${size} bytes, over the ${maxResultBytes}-byte limit of one message`, context, {
      http_status: envelope.http_status,
    }),
  );
}

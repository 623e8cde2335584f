import { errorEnvelope, type Envelope } from "./envelope.js";
import { failure, type FailureContext } from "./failure.js";

/** The JSON text fitResult measured, so whoever sends the envelope on does not serialise it again. */
const serialised = new WeakMap<object, string>();

/**
 * An answer as JSON text: for an envelope the executor produced, the text it measured
 * against `maxResultBytes` (no second `JSON.stringify` of a large result); for anything
 * else, a fresh serialisation.
 */
export function serializeEnvelope(answer: object): string {
  return serialised.get(answer) ?? JSON.stringify(answer);
}

/**
 * The envelope if its serialised form (`JSON.stringify`, UTF-8) fits `maxResultBytes`,
 * else `result_too_large`: a result is never cut. A value too deep to serialise is
 * `bad_response` (the depth bounds of `pick` and of bodies without it normally refuse
 * such a body earlier).
 */
export function fitResult(envelope: Envelope, maxResultBytes: number, context: FailureContext): Envelope {
  if (envelope.status === "error") return envelope;
  let text: string;
  try {
    text = JSON.stringify(envelope);
  } catch {
    return errorEnvelope(envelope, failure("bad_response", "the answer nests too deep to pass on", context, { http_status: envelope.http_status }));
  }
  // A UTF-16 code unit is at most 3 bytes of UTF-8: a text that short fits without counting.
  const size = text.length * 3 <= maxResultBytes ? text.length : Buffer.byteLength(text);
  if (size <= maxResultBytes) {
    serialised.set(envelope, text);
    return envelope;
  }
  return errorEnvelope(
    envelope,
    failure("result_too_large", `the result is ${size} bytes, over the ${maxResultBytes}-byte limit of one message`, context, {
      http_status: envelope.http_status,
    }),
  );
}

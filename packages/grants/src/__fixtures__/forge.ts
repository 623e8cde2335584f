// Test support: builds grants and confirmations byte by byte, so tests can sign
// payloads issueGrant would never produce and check that the verifier refuses them.
import { canonicalJson } from "@eleven-integrations/schema";
import sodium from "libsodium-wrappers";
import { fromBase64Url, toBase64Url } from "../base64url.js";
import { GrantError } from "../grant-error.js";
import { APPROVAL_CONTEXT, CONFIRM_CONTEXT, GRANT_CONTEXT, concatBytes, signedMessage } from "../signed-message.js";

const encoder = new TextEncoder();

export const NOW = 1_767_225_600;
export const MANIFEST_HASH = "0123456789abcdef".repeat(4);

/** Payload bytes: a string as given (any spelling), an object as canonical JSON. */
export function payloadBytes(payload: string | object): Uint8Array {
  return encoder.encode(typeof payload === "string" ? payload : canonicalJson(payload));
}

/** Signs `payload` for `audience` with `signerSecretKey` and seals signature + payload to `sealTo`. */
export function forgeGrant(options: { payload: string | object; signerSecretKey: string; audience: string; sealTo: string }): string {
  const payload = payloadBytes(options.payload);
  const message = signedMessage([GRANT_CONTEXT, fromBase64Url(options.audience), payload]);
  const signature = sodium.crypto_sign_detached(message, fromBase64Url(options.signerSecretKey));
  return sealGrantPlaintext(concatBytes(signature, payload), options.sealTo);
}

/** `eg1.` + the sealed plaintext (signature followed by payload). */
export function sealGrantPlaintext(plaintext: Uint8Array, sealTo: string): string {
  return `eg1.${toBase64Url(sodium.crypto_box_seal(plaintext, fromBase64Url(sealTo)))}`;
}

/** A confirmation token for any payload, signed by `signerSecretKey`. */
export function forgeConfirmation(options: { payload: string | object; signerSecretKey: string }): string {
  const payload = payloadBytes(options.payload);
  const signature = sodium.crypto_sign_detached(signedMessage([CONFIRM_CONTEXT, payload]), fromBase64Url(options.signerSecretKey));
  return `ec1.${toBase64Url(concatBytes(signature, payload))}`;
}

/** The `GrantError` code `run` throws, or undefined when it returns; any other error is rethrown. */
export function refusal(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (GrantError.isInstance(error)) return error.code;
    throw error;
  }
  return undefined;
}

/** The `GrantError` thrown by `run`; fails the test when it returns. */
export function thrown(run: () => unknown): GrantError {
  try {
    run();
  } catch (error) {
    if (GrantError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a GrantError");
}

/** Signs `payload` as a standing approval for `audience` and seals it to `sealTo` (`ea1.`). */
export function forgeApproval(options: { payload: string | object; signerSecretKey: string; audience: string; sealTo: string }): string {
  const payload = payloadBytes(options.payload);
  const message = signedMessage([APPROVAL_CONTEXT, fromBase64Url(options.audience), payload]);
  const signature = sodium.crypto_sign_detached(message, fromBase64Url(options.signerSecretKey));
  return `ea1.${toBase64Url(sodium.crypto_box_seal(concatBytes(signature, payload), fromBase64Url(options.sealTo)))}`;
}

/** Signs `payload` under any context for `audience` and seals it to `sealTo` with `prefix` (a subscription forged as anything). */
export function forgeSealed(options: {
  prefix: string;
  context: Uint8Array;
  payload: string | object;
  signerSecretKey: string;
  audience: string;
  sealTo: string;
}): string {
  const payload = payloadBytes(options.payload);
  const message = signedMessage([options.context, fromBase64Url(options.audience), payload]);
  const signature = sodium.crypto_sign_detached(message, fromBase64Url(options.signerSecretKey));
  return `${options.prefix}${toBase64Url(sodium.crypto_box_seal(concatBytes(signature, payload), fromBase64Url(options.sealTo)))}`;
}

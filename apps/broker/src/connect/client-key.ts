import { decodeKey, sealToPublicKey } from "@eleven-integrations/grants";
import { BrokerError } from "../http/broker-error.js";

/**
 * The member client's X25519 public key, checked to be 32 bytes of unpadded
 * base64url that a box can actually be sealed to (libsodium refuses low-order
 * points), so a flow never starts that could not end in sealed tokens.
 */
export function checkClientKey(value: unknown): string {
  if (typeof value !== "string" || value.length !== 43) throw invalidClientKey();
  try {
    decodeKey(value, 32, "client_key");
    sealToPublicKey(new Uint8Array(1), value);
  } catch {
    throw invalidClientKey();
  }
  return value;
}

function invalidClientKey(): BrokerError {
  return new BrokerError("invalid_client_key", "client_key must be the member client's 32-byte X25519 public key, unpadded base64url");
}

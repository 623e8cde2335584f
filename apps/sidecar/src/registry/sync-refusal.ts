import { markedError } from "@eleven-integrations/schema";

/** Why a sidecar did not take a registry release, as its log line names it. */
export type SyncRefusalReason =
  /** The broker could not be reached, timed out, or cut the body short. */
  | "unreachable"
  /** An answer other than 200 or 304. */
  | "http_status"
  /** A 3xx: releases are never fetched from anywhere but the configured URL. */
  | "redirect"
  /** Over the size limit. */
  | "too_large"
  /** Not a release document (a truncated one included). */
  | "malformed"
  /** No signature by a trusted release key. */
  | "untrusted_key"
  /** A trusted key's signature that does not verify: changed after signing. */
  | "bad_signature"
  /** A sequence not above the running release's, with another registry: an older release. */
  | "rollback"
  /** A manifest that does not load, or a hash that is not the manifests'. */
  | "invalid_manifests";

/** A release the sidecar refused; the running release stays. */
export class SyncRefusal extends markedError("SyncRefusal") {
  readonly code: SyncRefusalReason;

  constructor(code: SyncRefusalReason, message: string) {
    super(message);
    this.code = code;
  }
}

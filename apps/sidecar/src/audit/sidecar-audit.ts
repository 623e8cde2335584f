import type { KeyPair } from "@eleven-integrations/grants";
import type { FastifyBaseLogger } from "fastify";
import type { SidecarConfig } from "../config/config.js";
import { AuditCheckpoints, checkpointFileFor } from "./audit-checkpoints.js";
import { AuditLog } from "./audit-log.js";

/** The sidecar's audit journal, its head checkpointed beside it and signed with the receipt key (known once the sidecar is ready). */
export function createAuditLog(config: SidecarConfig, receiptKeys: () => KeyPair): AuditLog {
  const checkpoints = new AuditCheckpoints(config.auditCheckpointFile ?? checkpointFileFor(config.auditFile), receiptKeys);
  return new AuditLog(config.auditFile, {
    checkpoints,
    ...(config.auditRotateBytes === undefined ? {} : { rotateBytes: config.auditRotateBytes }),
  });
}

/** Opens the journal; one that no longer holds the head its last checkpoint recorded is said loudly (it opens all the same). */
export async function openAuditLog(audit: AuditLog, log: FastifyBaseLogger): Promise<void> {
  await audit.open();
  const mismatch = audit.checkpointMismatch;
  if (mismatch !== undefined) {
    log.error(
      { recorded: mismatch.recorded, found: mismatch.found },
      "the audit journal no longer holds the head its last checkpoint recorded: lines were removed or changed (integrations audit verify names where)",
    );
  }
}

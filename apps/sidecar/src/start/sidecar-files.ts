import { homedir } from "node:os";
import { join, resolve } from "node:path";

/** The files a sidecar keeps in its home directory. */
export interface SidecarFiles {
  home: string;
  /** The bot's X25519 key pair, `{ kind: "bot", publicKey, secretKey }`, mode 0600. */
  botKeyFile: string;
  /** The caller bearer token, mode 0600. */
  callerTokenFile: string;
  /** JSON array of the trusted members' Ed25519 public keys. */
  trustedMembersFile: string;
  /** One JSON line per run, mode 0600. */
  auditFile: string;
  /** Signed checkpoints of the audit journal's head (line count and hash), mode 0600. */
  auditCheckpointFile: string;
  /** The key of the audit lines' `args_digest`, mode 0600. */
  auditKeyFile: string;
  /** The Ed25519 receipt key pair that signs the receipts of writes, `{ kind: "receipt", publicKey, secretKey }`, mode 0600. */
  receiptKeyFile: string;
  /** Confirmations consumed and not yet expired, mode 0600. */
  replayFile: string;
  /** The outcomes of confirmed writes, until their confirmations expire and ten minutes more, mode 0600 (without Redis). */
  outcomeFile: string;
  /** Grants their members revoked, until they expire, mode 0600 (without Redis). */
  revocationFile: string;
  /** Standing approvals' budgets spent in their open windows, mode 0600 (without Redis). */
  approvalFile: string;
  /** Events kept for the bot, its subscriptions and their poll memory, mode 0600 (without Redis). */
  eventFile: string;
  /** The last good signed registry release, mode 0600 (when following a broker). */
  registryCacheFile: string;
  /** The newest registry release ever run, mode 0600 (when following a broker). */
  registryHighWaterFile: string;
  /** Downloaded (and uploaded) files under their SHA-256, each 0600, in a 0700 folder. */
  filesDir: string;
}

/** `~/.eleven-sidecar`, where a sidecar keeps its files unless told otherwise. */
export function defaultSidecarHome(): string {
  return join(homedir(), ".eleven-sidecar");
}

export function sidecarFiles(home: string = defaultSidecarHome()): SidecarFiles {
  const dir = resolve(home);
  return {
    home: dir,
    botKeyFile: join(dir, "bot-key.json"),
    callerTokenFile: join(dir, "caller-token"),
    trustedMembersFile: join(dir, "trusted-members.json"),
    auditFile: join(dir, "audit.log"),
    auditCheckpointFile: join(dir, "audit.checkpoints"),
    auditKeyFile: join(dir, "audit-key"),
    receiptKeyFile: join(dir, "receipt-key.json"),
    replayFile: join(dir, "replay.log"),
    revocationFile: join(dir, "revocations.log"),
    outcomeFile: join(dir, "outcomes.log"),
    approvalFile: join(dir, "approvals.log"),
    eventFile: join(dir, "events.log"),
    registryCacheFile: join(dir, "registry-release.json"),
    registryHighWaterFile: join(dir, "registry-high-water"),
    filesDir: join(dir, "files"),
  };
}

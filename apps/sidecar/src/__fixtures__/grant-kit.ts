// Keys, a registry and grants for tests: one member, one bot, the shipped manifests.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  generateReceiptKeys,
  generateBotKeys,
  generateMemberKeys,
  issueGrant,
  openGrant,
  ready,
  renderConfirm,
  signConfirmation,
  issueApproval,
  renderApprovalLine,
  type ApprovalArgs,
  type ApprovalBudget,
  type Grant,
  type GrantPolicy,
  type KeyPair,
} from "@eleven-integrations/grants";
import { loadRegistry, type Registry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";

await ready();

export const registry: Registry = loadRegistry(manifestFiles);
export const member: KeyPair = generateMemberKeys();
export const bot: KeyPair = generateBotKeys();
/** The member's GitHub token in every test grant: it must never reach a log or the audit file. */
export const MEMBER_TOKEN = "ghp_memberTokenThatMustNeverBeLogged0123";
/** The test apps' audit digest key (32 bytes, base64url). */
export const AUDIT_KEY = "YXVkaXQta2V5LWZvci1zaWRlY2FyLXRlc3RzLTAwMDA";
/** The receipt keys the hand-built test apps sign with (buildApp draws its own without `receiptKeys`). */
export const RECEIPT_KEYS: KeyPair = generateReceiptKeys();
export const CALLER_TOKEN = "caller-token-that-must-never-be-logged-4567";

export function manifestHash(integration: string): string {
  const hash = registry.manifestHash(integration);
  if (hash === undefined) throw new Error(`no manifest ${integration}`);
  return hash;
}

export interface GrantOptions {
  access?: "read" | "write";
  integration?: string;
  ops?: string[];
  manifestHash?: string;
  ttlSeconds?: number;
  now?: number;
  botPublicKey?: string;
  issuer?: KeyPair;
  /** The credential's kind: a personal token (default) or one from the OAuth flow. */
  kind?: "pat" | "oauth";
  /** The account the credential acts as (from the bundle, or `integrations grant --account`). */
  account?: { id: string; name: string };
  /** The connection's tenant settings. */
  connection?: Record<string, string>;
  /** When the credential itself ends (Unix seconds). */
  expiresAt?: number;
  /** The member's signed policy. */
  policy?: GrantPolicy;
}

/** A sealed grant from `member` to `bot` for GitHub, read by default. */
export function grantFor(options: GrantOptions = {}): string {
  const integration = options.integration ?? "github";
  return issueGrant({
    member: options.issuer ?? member,
    botPublicKey: options.botPublicKey ?? bot.publicKey,
    integration,
    manifestHash: options.manifestHash ?? manifestHash(integration),
    access: options.access ?? "read",
    ...(options.ops === undefined ? {} : { ops: options.ops }),
    credential: { kind: options.kind ?? "pat", token: MEMBER_TOKEN, ...(options.expiresAt === undefined ? {} : { expires_at: options.expiresAt }) },
    ...(options.account === undefined ? {} : { account: options.account }),
    ...(options.connection === undefined ? {} : { connection: options.connection }),
    ...(options.policy === undefined ? {} : { policy: options.policy }),
    ttlSeconds: options.ttlSeconds ?? 600,
    ...(options.now === undefined ? {} : { now: options.now }),
  });
}

/** The opened payload of a grant sealed to `bot`. */
export function opened(sealed: string, botKeys: KeyPair = bot): Grant {
  return openGrant(sealed, { bot: botKeys, trustedMembers: [member.publicKey] });
}

/** The confirm line the sidecar renders for a GitHub op, as the member sees it. */
export function lineFor(op: string, args: Record<string, string>): string {
  const operation = registry.operation("github", op);
  if (operation?.confirm === undefined) throw new Error(`${op} has no confirm line`);
  return renderConfirm(operation.confirm, args);
}

/** The member's tap on the chip for `op` with `args` under `sealed`. */
export function confirmationFor(sealed: string, op: string, args: Record<string, string>, line = lineFor(op, args)): string {
  return signConfirmation({ member, grant: opened(sealed), op, args, line });
}

export async function temporaryDirectory(prefix = "sidecar-test-"): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export interface ApprovalOptions {
  op: string;
  args: ApprovalArgs;
  budget: ApprovalBudget;
  integration?: string;
  botPublicKey?: string;
  issuer?: KeyPair;
  manifestHash?: string;
  ttlSeconds?: number;
  event?: string;
  /** The line the member signs; by default the one `renderApprovalLine` makes. */
  line?: string;
}

/** A standing approval from `member` to `bot` (GitHub by default), signed over the line `renderApprovalLine` makes. */
export function approvalFor(options: ApprovalOptions): string {
  const integration = options.integration ?? "github";
  const manifest = registry.get(integration);
  if (manifest === undefined) throw new Error(`no manifest ${integration}`);
  const ttlSeconds = options.ttlSeconds ?? 3600;
  const now = Math.floor(Date.now() / 1000);
  const line = options.line ?? renderApprovalLine({ manifest, op: options.op, args: options.args, budget: options.budget, exp: now + ttlSeconds });
  return issueApproval({
    member: options.issuer ?? member,
    botPublicKey: options.botPublicKey ?? bot.publicKey,
    integration,
    manifestHash: options.manifestHash ?? manifestHash(integration),
    op: options.op,
    args: options.args,
    budget: options.budget,
    line,
    ...(options.event === undefined ? {} : { event: options.event }),
    ttlSeconds,
    now,
  });
}

import type { RunArgs } from "@eleven-integrations/schema";
import type { FileStore } from "../files/file-store.js";
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { keyedArgsDigest, type Approval, type CheckedConfirmation, type Grant, type GrantAccount, type KeyPair } from "@eleven-integrations/grants";
import type { CompiledOperation } from "@eleven-integrations/loader";
import type { FastifyBaseLogger } from "fastify";
import type { AuditSink } from "../audit/audit-log.js";
import type { RunAnswer } from "../run/answers.js";
import type { RegistrySnapshot } from "../registry/live-registry.js";
import type { GrantOpener } from "../run/grant-opener.js";
import type { CallScope, SharedState } from "../state/shared-state.js";

/** What every call of this sidecar is run with: the bot's state, its audit journal and its keys. */
export interface CallContext {
  /** This bot's `openGrant`, bound to its keys and trusted members. */
  openGrant: GrantOpener;
  /** Consumed confirmations, rate limits, revocations and the previews given: this process and its journals, or Redis. */
  state: SharedState;
  audit: AuditSink;
  /** The key of the audit lines' `args_digest`. */
  auditKey: string;
  /** The Ed25519 key pair that signs the receipts of writes. */
  receiptKeys: () => KeyPair;
  /** This bot's `openApproval`, bound to its keys and trusted members (throws `GrantError`). */
  openApproval: (sealed: string) => Approval;
  /** The sidecar's file folder, where a download's bytes are kept; absent, they are not kept. */
  files?: FileStore | undefined;
  /** The events this sidecar delivered: an event-bound approval names one (absent: none was delivered). */
  events?: import("../events/event-store.js").EventStore;
}

/** What the audit line says about a call besides its outcome; `null` where the call never learned it. */
export interface CallFacts {
  gid: string | null;
  member: string | null;
  integration: string | null;
  op: string;
  /** The op's access (`write` for a write attempted under a read grant). */
  access: "read" | "write" | null;
  /** Keyed under the sidecar's audit key (`keyedArgsDigest`): a guess of the args cannot be checked against it. */
  args_digest: string;
  /** The account the grant's credential acts as, when the member's client named it. */
  account: GrantAccount | null;
  /** The standing approval a write runs under, once `decide` accepted it. */
  aid?: string;
  /** The preview line a write under a standing approval read before it ran. */
  preview?: string;
}

/** Why the call was made: a bot's run, or its question of which account a grant acts as (the identity op). */
export type CallPurpose = "run" | "whoami";

/**
 * One call, opened once and carried through the steps. Each step reads what the
 * ones before it learned and adds its own: `open` the grant (and the op found for
 * it), `decide` the consumed confirmation and the preview, `send` whether a write
 * left. `facts` is what the audit line says, filled in as the steps learn it.
 */
export interface Call {
  readonly purpose: CallPurpose;
  /** The `audit_id` of every line of this call (a write's `started` line and its outcome). */
  readonly auditId: string;
  /** `performance.now()` when the call was opened. */
  readonly started: number;
  /** The registry running as the call started: the call finishes on it, whatever is swapped meanwhile. */
  readonly snapshot: RegistrySnapshot;
  readonly context: CallContext;
  /** The request's logger. */
  readonly log: FastifyBaseLogger;
  readonly facts: CallFacts;
  readonly args: RunArgs;
  /** A `next_page` the bot sends back, as it came. */
  readonly page: string | undefined;
  /** The member's tap on a write's chip, as it came. */
  readonly confirmation: string | undefined;
  /** A standing approval (`ea1.`) the bot runs a write under, as it came. */
  readonly approval: string | undefined;
  /** The delivered event a write under an event-bound approval answers. */
  readonly eventId: string | undefined;
  /** Set by `open`: see `OpenCall`. */
  grant?: Grant;
  scope?: CallScope;
  operation?: CompiledOperation;
  /**
   * Set by `admit` for a confirmed write without a preview: its trip to the store
   * (revocation and limits) is made with the confirmation's consumption, in `decide`.
   */
  admissionDeferred?: boolean;
  /** Set by `decide` once the confirmation is consumed: the stored outcome and the receipt belong to it. */
  consumed?: CheckedConfirmation;
  /** Set by `decide` once a standing approval's budget paid for this write: the receipt names it. */
  approved?: ApprovedRun;
  /** Set by `send` once a write's durable `started` line is written: the write left (or may have). */
  sent: boolean;
  /** What the bot gets when it is not the envelope the audit line records (`whoami` shows the account its identity op named). */
  shown?: object;
}

/** A write let run under a standing approval: the approval, and this run's own nonce (its receipt's). */
export interface ApprovedRun {
  readonly approval: Approval;
  readonly nonce: string;
}

/** A call whose grant opened (`open`): its grant, the state's scope of it, and the op when the integration has one by that id. */
export interface OpenCall extends Call {
  readonly grant: Grant;
  /** The grant's member, grant and integration: what the state keys the call's entries by. */
  readonly scope: CallScope;
}

/** A call let in (`admit`): the grant allows its op, which the integration has. */
export interface AdmittedCall extends OpenCall {
  readonly operation: CompiledOperation;
}

/** What a step that may end the call gives: the answer it ends it with, or the call, a stage further. */
export type Stage<T extends Call> = { ok: true; call: T } | { ok: false; answer: RunAnswer };

/** What a route answers: its HTTP status and body (an object, or JSON text already serialised). */
export interface CallResult {
  statusCode: number;
  payload: object | string;
}

/** What a route hands the pipeline: the call's raw parts, as the bot sent them. */
export interface CallInput {
  purpose: CallPurpose;
  op: string;
  args?: RunArgs | undefined;
  page?: string | undefined;
  confirmation?: string | undefined;
  approval?: string | undefined;
  eventId?: string | undefined;
}

/** Opens the record of a call before any check, so even a call refused at once is audited with what it named. */
export function beginCall(input: CallInput, snapshot: RegistrySnapshot, context: CallContext, log: FastifyBaseLogger): Call {
  const args = input.args ?? {};
  return {
    purpose: input.purpose,
    auditId: randomUUID(),
    started: performance.now(),
    snapshot,
    context,
    log,
    facts: { gid: null, member: null, integration: null, op: input.op, access: null, args_digest: keyedArgsDigest(args, context.auditKey), account: null },
    args,
    page: input.page,
    confirmation: input.confirmation,
    approval: input.approval,
    eventId: input.eventId,
    sent: false,
  };
}

/** Milliseconds since the call was opened, to a tenth. */
export function elapsedMs(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}

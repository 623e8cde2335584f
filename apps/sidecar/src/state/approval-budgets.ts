import type { ApprovalBudgetLeft, ApprovalSpend, ApprovalSpendResult } from "./shared-state.js";

/** One approval's open window: when it ends (ms), the runs and the amount spent in it. */
export interface BudgetWindow {
  endsAtMs: number;
  runs: number;
  spent: number;
}

/** Past this many, windows that have ended are swept. */
const SWEEP_AT = 10_000;

/**
 * Standing approvals' budgets in this process: fixed windows, each started by
 * its approval's first run, counting runs and the amount summed over an arg.
 * Checked and counted in one synchronous step, so concurrent calls never overspend.
 */
export class ApprovalBudgets {
  readonly #windows = new Map<string, BudgetWindow>();

  /** Spends one run of `spend` at `nowMs`; `exhausted` (nothing counted) when it would go over. */
  spend(spend: ApprovalSpend, nowMs: number): Exclude<ApprovalSpendResult, { reason: "revoked" }> & { window?: BudgetWindow } {
    const id = budgetId(spend.ref);
    const open = this.#current(id, nowMs);
    const runs = (open?.runs ?? 0) + 1;
    const spent = (open?.spent ?? 0) + (spend.sum?.amount ?? 0);
    if (open !== undefined && (runs > spend.runs || (spend.sum !== undefined && spent > spend.sum.max))) {
      return { ok: false, reason: "exhausted", retryAfterSeconds: Math.max(1, Math.ceil((open.endsAtMs - nowMs) / 1000)) };
    }
    if (open === undefined && spend.sum !== undefined && spent > spend.sum.max) {
      return { ok: false, reason: "exhausted", retryAfterSeconds: spend.perSeconds };
    }
    const window = { endsAtMs: open?.endsAtMs ?? nowMs + spend.perSeconds * 1000, runs, spent };
    if (this.#windows.size >= SWEEP_AT) this.#sweep(nowMs);
    this.#windows.set(id, window);
    return { ok: true, window };
  }

  /** Puts back a window read from a journal. */
  restore(id: string, window: BudgetWindow, nowMs: number): void {
    if (window.endsAtMs > nowMs) this.#windows.set(id, window);
  }

  left(spend: Omit<ApprovalSpend, "sum"> & { readonly sumMax?: number }, nowMs: number): Omit<ApprovalBudgetLeft, "revoked"> {
    const open = this.#current(budgetId(spend.ref), nowMs);
    return {
      runsLeft: Math.max(0, spend.runs - (open?.runs ?? 0)),
      ...(spend.sumMax === undefined ? {} : { sumLeft: Math.max(0, spend.sumMax - (open?.spent ?? 0)) }),
      resetsAt: Math.ceil((open?.endsAtMs ?? nowMs) / 1000),
    };
  }

  #current(id: string, nowMs: number): BudgetWindow | undefined {
    const open = this.#windows.get(id);
    if (open === undefined || open.endsAtMs > nowMs) return open;
    this.#windows.delete(id);
    return undefined;
  }

  #sweep(nowMs: number): void {
    for (const [id, window] of this.#windows) if (window.endsAtMs <= nowMs) this.#windows.delete(id);
  }
}

/** The key an approval's budget is kept under: its member and id. */
export function budgetId(ref: { gid: string; member: string }): string {
  return `${ref.member}.${ref.gid}`;
}

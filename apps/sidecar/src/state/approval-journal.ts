import { LineJournal, type JournalIo } from "../audit/line-journal.js";
import { ApprovalBudgets, budgetId, type BudgetWindow } from "./approval-budgets.js";
import type { ApprovalBudgetLeft, ApprovalSpend, ApprovalSpendResult } from "./shared-state.js";

// `<member>.<aid> <window end, ms> <runs> <amount spent>`: the window as the spend left it.
const ENTRY = /^([A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{22}) ([0-9]{1,15}) ([0-9]{1,6}) (-?[0-9.eE+-]{1,32})$/;

/**
 * A lone sidecar's standing-approval budgets: `ApprovalBudgets` in memory, each
 * spend also appended as its window's new state (flushed before the write
 * runs) to a 0600 file read back at start, so a restart never gives a budget
 * back. Without a file: memory only (tests).
 */
export class ApprovalJournal {
  readonly #budgets = new ApprovalBudgets();
  readonly #file: LineJournal | undefined;

  constructor(path: string | undefined, io?: JournalIo) {
    this.#file = path === undefined ? undefined : new LineJournal(path, io);
  }

  /** Reads the open windows back (the last line of each approval wins), and rewrites the file with them alone. */
  load(nowMs: number = Date.now()): void {
    if (this.#file === undefined || this.#file.isOpen) return;
    const last = new Map<string, BudgetWindow>();
    for (const line of this.#file.readLines()) {
      const match = ENTRY.exec(line);
      if (match === null) continue;
      const [, id = "", endsAt = "0", runs = "0", spent = "0"] = match;
      const window = { endsAtMs: Number(endsAt), runs: Number(runs), spent: Number(spent) };
      if (Number.isFinite(window.spent)) last.set(id, window);
    }
    const kept: string[] = [];
    for (const [id, window] of last) {
      if (window.endsAtMs <= nowMs) continue;
      this.#budgets.restore(id, window, nowMs);
      kept.push(entry(id, window));
    }
    this.#file.rewrite(kept);
  }

  /** Spends one run; the window's new state is on disk before this returns (it throws when it cannot be: the run is refused). */
  spend(spend: ApprovalSpend, nowMs: number = Date.now()): ApprovalSpendResult {
    const result = this.#budgets.spend(spend, nowMs);
    if (!result.ok || result.window === undefined) return result;
    this.#file?.append(entry(budgetId(spend.ref), result.window));
    return { ok: true };
  }

  left(spend: Omit<ApprovalSpend, "sum"> & { readonly sumMax?: number }, nowMs: number = Date.now()): Omit<ApprovalBudgetLeft, "revoked"> {
    return this.#budgets.left(spend, nowMs);
  }

  close(): void {
    this.#file?.close();
  }
}

function entry(id: string, window: BudgetWindow): string {
  return `${id} ${window.endsAtMs} ${window.runs} ${window.spent}`;
}

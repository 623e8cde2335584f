import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { parseManifest, type Manifest, type Operation } from "@eleven-integrations/schema";
import { allowing, type AllowEntry } from "./allow-list.js";
import { SpecError } from "./spec-error.js";

export interface CheckedMismatch {
  readonly rule: string;
  readonly subject: string;
  readonly message: string;
  /** The allow-list's reason, when the spec is wrong rather than the manifest. */
  readonly allowed?: string;
}

export interface OpReport {
  readonly id: string;
  readonly status: "ok" | "mismatch" | "allowed";
  /** What the op was matched to in the spec (`GET /repos/{owner}/{repo}/issues`, `query`). */
  readonly matched: string | undefined;
  readonly mismatches: readonly CheckedMismatch[];
}

export interface CheckReport {
  readonly integration: string;
  readonly against: string;
  readonly ok: boolean;
  readonly ops: readonly OpReport[];
  readonly summary: { ops: number; ok: number; mismatch: number; allowed: number };
  /** Allow-list entries for this integration that allowed nothing: the spec or the manifest changed. */
  readonly unusedAllowances: readonly AllowEntry[];
}

/** Reads and validates one manifest file with the schema the loader uses. */
export async function readManifest(file: string, cwd: string): Promise<Manifest> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(resolve(cwd, file), "utf8"));
  } catch (error) {
    throw new SpecError("invalid_manifest", `cannot read the manifest ${file}: ${(error as Error).message}`);
  }
  const parsed = parseManifest(json);
  if (!parsed.ok) {
    throw new SpecError("invalid_manifest", `${file} is not a valid manifest: ${parsed.issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ")}`);
  }
  return parsed.manifest;
}

/** Runs a per-op check over a manifest and folds in the allow-list. */
export function buildReport(
  manifest: Manifest,
  against: string,
  allow: readonly AllowEntry[],
  check: (op: Operation) => { matched: string | undefined; mismatches: readonly { rule: string; subject: string; message: string }[] },
): CheckReport {
  const used = new Set<AllowEntry>();
  const ops: OpReport[] = manifest.ops.map((op) => {
    const result = check(op);
    const mismatches = result.mismatches.map((mismatch): CheckedMismatch => {
      const entry = allowing(allow, manifest.id, op.id, mismatch);
      if (entry === undefined) return mismatch;
      used.add(entry);
      return { ...mismatch, allowed: entry.reason };
    });
    const status = mismatches.some((mismatch) => mismatch.allowed === undefined) ? "mismatch" : mismatches.length > 0 ? "allowed" : "ok";
    return { id: op.id, status, matched: result.matched, mismatches };
  });
  const count = (status: OpReport["status"]) => ops.filter((op) => op.status === status).length;
  const summary = { ops: ops.length, ok: count("ok"), mismatch: count("mismatch"), allowed: count("allowed") };
  const unusedAllowances = allow.filter((entry) => entry.integration === manifest.id && !used.has(entry));
  return { integration: manifest.id, against, ok: summary.mismatch === 0, ops, summary, unusedAllowances };
}

/** One line per op with its reasons, then the summary (what `--json` leaves to machines). */
export function formatReport(report: CheckReport): string {
  const width = Math.max(...report.ops.map((op) => op.id.length));
  const lines = report.ops.map((op) => {
    const label = op.status === "mismatch" ? "MISMATCH" : op.status;
    const head = `${label.padEnd(8)}  ${op.id.padEnd(width)}  ${op.matched ?? "-"}`;
    if (op.mismatches.length === 0) return head;
    const reasons = op.mismatches.map((mismatch) => (mismatch.allowed === undefined ? mismatch.message : `${mismatch.message} (allowed: ${mismatch.allowed})`));
    return `${head} — ${reasons.join("; ")}`;
  });
  for (const entry of report.unusedAllowances) {
    lines.push(
      `note      allow-list entry ${entry.op} ${entry.rule}${entry.subject === undefined ? "" : ` "${entry.subject}"`} allowed nothing: remove it if the spec was fixed`,
    );
  }
  const { ops, ok, mismatch, allowed } = report.summary;
  lines.push(
    `${report.integration}: ${ops} op${ops === 1 ? "" : "s"} checked against ${report.against}: ${ok} ok, ${mismatch} mismatch${mismatch === 1 ? "" : "es"}, ${allowed} allowed`,
  );
  return `${lines.join("\n")}\n`;
}

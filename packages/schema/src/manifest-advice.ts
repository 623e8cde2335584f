import type { Manifest } from "./manifest-schema.js";
import type { Operation } from "./operation-schema.js";
import { formatJsonPath } from "./parse-manifest.js";

/**
 * The rules the shipped catalog holds every manifest to beyond what loads: a manifest that
 * breaks one still loads (a registry of your own may differ), and `integrations validate`
 * warns, naming the rule (`--strict` refuses). Each was a rule only the tests knew.
 */
export const MANIFEST_ADVICE_RULES = {
  "read-method":
    "a read goes out as GET; one sent with another method (its query travels in a body) is marked search: true, unless it is a GraphQL query or its verb starts with search",
  "two-reads": "a manifest has at least two reads, so a bot can look around before it writes",
  "one-write": "a manifest has at least one write",
  "read-picks": "every read picks (pick) the fields it answers, so the bot gets what the manifest promises, not the provider's whole answer",
  "error-dialect": "a manifest declares its provider's error dialect (errors), so failures come back as the provider meant them",
} as const;

export type ManifestAdviceRule = keyof typeof MANIFEST_ADVICE_RULES;

/** One rule a manifest breaks: where (a JSON path as in load errors) and what to do. */
export interface ManifestAdvice {
  rule: ManifestAdviceRule;
  path: string;
  message: string;
}

const GRAPHQL_QUERY = /^\s*(query\b|\{)/;

/** A read sent with another method than GET that is a documented search: marked, a GraphQL query, or a `*.search*` verb. */
function isDocumentedSearch(op: Operation): boolean {
  if (op.search === true) return true;
  const body = op.body_json;
  if (body !== undefined && !Array.isArray(body) && typeof body.query === "string" && GRAPHQL_QUERY.test(body.query)) return true;
  return /^search/.test(op.id.slice(op.id.indexOf(".") + 1));
}

/** Every catalog rule `manifest` breaks, in the order of `MANIFEST_ADVICE_RULES`, then by op. */
export function manifestAdvice(manifest: Manifest): ManifestAdvice[] {
  const advice: ManifestAdvice[] = [];
  const reads = manifest.ops.filter((op) => op.access === "read");
  manifest.ops.forEach((op, index) => {
    // A download sent with POST (Dropbox's content endpoints) is the provider's documented way to read a file.
    if (op.access === "read" && op.method !== "GET" && op.result !== "file" && !isDocumentedSearch(op)) {
      advice.push({
        rule: "read-method",
        path: formatJsonPath(["ops", index, "method"]),
        message: `a read sent with ${op.method}: if it changes nothing (its query travels in a body), mark it "search": true; if it changes something, make it a write`,
      });
    }
  });
  if (reads.length < 2)
    advice.push({ rule: "two-reads", path: "ops", message: `has ${reads.length} read${reads.length === 1 ? "" : "s"}; the catalog wants at least two` });
  if (!manifest.ops.some((op) => op.access === "write"))
    advice.push({ rule: "one-write", path: "ops", message: "has no write; the catalog wants at least one" });
  manifest.ops.forEach((op, index) => {
    // A download (`result: "file"`) answers bytes kept by the sidecar, not JSON: nothing to pick.
    if (op.access === "read" && op.pick === undefined && op.result !== "file") {
      advice.push({
        rule: "read-picks",
        path: formatJsonPath(["ops", index]),
        message: "a read with no pick hands the bot the provider's whole answer; pick its root or fields",
      });
    }
  });
  if (manifest.errors === undefined)
    advice.push({ rule: "error-dialect", path: "errors", message: "declares no error dialect; the provider's failures come back unread" });
  return advice;
}

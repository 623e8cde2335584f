import type { ManifestEvent } from "./event-schema.js";
import type { Operation } from "./operation-schema.js";
import type { IssueSink } from "./rule-checks.js";

/**
 * Rules that tie events to the rest of the manifest: ids are unique, a poll names a read op of
 * this manifest with args it takes (its required ones given), a `since` it takes, and a `key`
 * and picked fields its op picks. Each problem carries its JSON path.
 */
export function eventManifestRules(
  manifest: { readonly ops: readonly Operation[]; readonly events?: readonly ManifestEvent[] | undefined },
  issue: IssueSink,
): void {
  const events = manifest.events ?? [];
  const seen = new Set<string>();
  events.forEach((event, index) => {
    if (seen.has(event.id)) issue(["events", index, "id"], `duplicates event id "${event.id}"`);
    seen.add(event.id);
    if (event.source === "poll" && event.poll !== undefined) pollProblems(event, index, manifest.ops, issue);
  });
}

function pollProblems(event: ManifestEvent, index: number, ops: readonly Operation[], issue: IssueSink): void {
  const poll = event.poll as NonNullable<ManifestEvent["poll"]>;
  const at = (...path: PropertyKey[]) => ["events", index, "poll", ...path];
  let op: Operation | undefined;
  for (const candidate of ops) if (candidate.id === poll.op) op = candidate;
  if (op === undefined) return issue(at("op"), `names no op of this manifest ("${poll.op}")`);
  if (op.access !== "read") return issue(at("op"), `must name a read op; ${op.id} is a ${op.access}`);
  const opArgs = op.args ?? {};
  const given = poll.args ?? {};
  for (const name of Object.keys(given)) if (!Object.hasOwn(opArgs, name)) issue(at("args", name), `is not an arg of ${op.id}`);
  if (poll.since !== undefined && !Object.hasOwn(opArgs, poll.since)) issue(at("since"), `is not an arg of ${op.id}`);
  for (const [name, arg] of Object.entries(opArgs)) {
    if (arg.required === true && !Object.hasOwn(given, name) && poll.since !== name) issue(at("args"), `leaves out ${op.id}'s required arg "${name}"`);
  }
  const opFields = op.pick?.fields;
  if (opFields !== undefined && opFields.length > 0) {
    if (!opFields.includes(poll.key)) issue(at("key"), `is not a picked field of ${op.id} (pick.fields: ${opFields.join(", ")})`);
    (event.pick.fields ?? []).forEach((field, slot) => {
      if (!opFields.includes(field)) issue(["events", index, "pick", "fields", slot], `is not a picked field of ${op.id}: each polled item has only those`);
    });
  } else if (!(event.pick.fields ?? []).includes(poll.key) && op.pick?.root === undefined) {
    issue(at("key"), `${op.id} picks no fields: the key must be one of this event's picked fields`);
  }
}

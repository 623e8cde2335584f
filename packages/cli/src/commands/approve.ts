import { GrantError, issueApproval, ready, renderApprovalLine, type ApprovalArgs, type ArgConstraint } from "@eleven-integrations/grants";
import { UsageError, type CommandIo } from "../io.js";
import { readKeyFile } from "../key-file.js";
import { resolveRegistry } from "../resolve-registry.js";
import { escapeText } from "../terminal-text.js";

export interface ApproveCommand {
  memberFile: string;
  botPublicKey: string;
  integration: string;
  op: string;
  /** `name=value`: exactly this value ("always allow this": a tap's args become these). A list or file (`name:=<json>`) is refused: only `--any` covers those. */
  eq: Readonly<Record<string, unknown>>;
  /** `name=a|b|c`: one of these values. */
  oneOf: readonly string[];
  /** `name=min..max` (either end may be empty): a numeric range. */
  range: readonly string[];
  /** Args left free, said explicitly. */
  any: readonly string[];
  runs: string;
  per: string;
  /** `arg:max`: a budget summed over a numeric arg. */
  sum: string | undefined;
  event: string | undefined;
  ttl: string;
  dir: string | undefined;
  yes: boolean;
}

const PERIODS: Record<string, number> = { hour: 3600, day: 86_400, week: 604_800 };

/**
 * `integrations approve`: a standing approval for one write op. Every arg of the
 * op gets a constraint (`--arg` for exactly a value, `--in`, `--range`, or
 * `--any`, said explicitly); the line `renderApprovalLine` makes is shown, the
 * member is asked, and the approval is signed and sealed to the bot (`ea1.…`
 * on standard output). `--arg` for every arg is "always allow this" from a tap.
 */
export async function approve(command: ApproveCommand, io: CommandIo): Promise<number> {
  const registry = await resolveRegistry(command.dir, io.cwd);
  const manifest = registry.get(command.integration);
  const manifestHash = registry.manifestHash(command.integration);
  const operation = registry.operation(command.integration, command.op);
  if (manifest === undefined || manifestHash === undefined || operation === undefined)
    throw new UsageError(`unknown op "${command.integration} ${command.op}"`);
  if (operation.access !== "write") throw new UsageError(`"${command.op}" is a read; a read needs no approval`);
  const args = constraints(command, Object.keys(operation.operation.args ?? {}));
  const budget = { runs: whole("--runs", command.runs), per_seconds: PERIODS[command.per] ?? whole("--per", command.per), ...sumOf(command.sum) };
  const ttlSeconds = whole("--ttl", command.ttl);
  await ready();
  const now = Math.floor(Date.now() / 1000);
  const member = await readKeyFile(command.memberFile, "member");
  try {
    const line = renderApprovalLine({ manifest, op: command.op, args, budget, exp: now + ttlSeconds });
    io.stderr(`${command.integration} ${command.op}, standing approval:\n\n  ${escapeText(line)}\n\n`);
    if (!command.yes) {
      const answer = io.ask === undefined ? undefined : await io.ask("Sign this approval? [y/N] ");
      if (answer === undefined) {
        io.stderr("nothing signed: approve asks before it signs; run it in a terminal, or pass --yes in a script that showed the member this line\n");
        return 1;
      }
      if (!/^\s*y(es)?\s*$/i.test(answer)) {
        io.stderr("nothing signed\n");
        return 1;
      }
    }
    const sealed = issueApproval({
      member,
      botPublicKey: command.botPublicKey,
      integration: command.integration,
      manifestHash,
      op: command.op,
      args,
      budget,
      line,
      ...(command.event === undefined ? {} : { event: command.event }),
      ttlSeconds,
      now,
    });
    io.stdout(`${sealed}\n`);
    return 0;
  } catch (error) {
    if (GrantError.isInstance(error)) throw new UsageError(`${error.code}: ${error.message}`);
    throw error;
  }
}

/** One constraint per declared arg, each said once; an arg left out or unknown is a usage error naming it. */
function constraints(command: ApproveCommand, declared: readonly string[]): ApprovalArgs {
  const args: Record<string, ArgConstraint> = {};
  const put = (name: string, constraint: ArgConstraint) => {
    if (!declared.includes(name)) throw new UsageError(`${command.op} has no arg "${name}" (its args: ${declared.join(", ") || "none"})`);
    if (Object.hasOwn(args, name)) throw new UsageError(`"${name}" is constrained twice`);
    args[name] = constraint;
  };
  for (const [name, value] of Object.entries(command.eq)) {
    if (typeof value !== "string") throw new UsageError(`--arg ${name}: an approval constrains a list or a file only with --any ${name}`);
    put(name, { eq: value });
  }
  for (const entry of command.oneOf) {
    const [name, values] = split(entry, "=", "--in takes name=a|b|c");
    put(name, { in: values.split("|") });
  }
  for (const entry of command.range) {
    const [name, bounds] = split(entry, "=", "--range takes name=min..max");
    const [min = "", max = ""] = bounds.split("..");
    const constraint = { ...(min === "" ? {} : { min: finite("--range", min) }), ...(max === "" ? {} : { max: finite("--range", max) }) };
    if (!("min" in constraint) && !("max" in constraint)) throw new UsageError("--range needs a min, a max or both");
    put(name, constraint as ArgConstraint);
  }
  for (const name of command.any) put(name, "any");
  const missing = declared.filter((name) => !Object.hasOwn(args, name));
  if (missing.length > 0) {
    throw new UsageError(`every arg of ${command.op} needs a constraint: add --arg, --in, --range or --any for ${missing.join(", ")}`);
  }
  return args;
}

function split(entry: string, separator: string, usage: string): [string, string] {
  const at = entry.indexOf(separator);
  if (at < 1) throw new UsageError(usage);
  return [entry.slice(0, at), entry.slice(at + separator.length)];
}

function sumOf(sum: string | undefined): { sum?: { arg: string; max: number } } {
  if (sum === undefined) return {};
  const [arg, max] = split(sum, ":", "--sum takes arg:max");
  return { sum: { arg, max: finite("--sum", max) } };
}

function whole(flag: string, value: string): number {
  if (!/^[1-9][0-9]{0,9}$/.test(value)) throw new UsageError(`${flag} must be a whole number above 0`);
  return Number(value);
}

function finite(flag: string, value: string): number {
  const number = Number(value);
  if (value.trim() === "" || !Number.isFinite(number)) throw new UsageError(`${flag} takes numbers`);
  return number;
}

import { GrantError, issueGrant, POLICY_RULES, ready, type GrantPolicy, type PolicyRule } from "@eleven-integrations/grants";
import { connectionProblems } from "@eleven-integrations/schema";
import { UsageError, type CommandIo } from "../io.js";
import { readKeyFile } from "../key-file.js";
import { resolveRegistry } from "../resolve-registry.js";
import { escapeText } from "../terminal-text.js";

/** `--account <id>:<name>`: the id is everything before the first colon (ids never hold one), the name the rest. */
function parseAccount(text: string): { id: string; name: string } {
  const colon = text.indexOf(":");
  const id = colon < 0 ? "" : text.slice(0, colon);
  const name = colon < 0 ? "" : text.slice(colon + 1);
  if (id === "" || name === "") throw new UsageError("--account must be <id>:<name>, both non-empty (for example 583231:octocat)");
  return { id, name };
}

/** `--policy` rules into the grant's policy (presets by class, or one op's rule); none given is no policy. */
function policyRules(values: readonly string[], opIds: readonly string[]): GrantPolicy | undefined {
  if (values.length === 0) return undefined;
  const policy: GrantPolicy = {};
  for (const value of values) {
    const equals = value.indexOf("=");
    const name = value.slice(0, equals);
    const rule = value.slice(equals + 1);
    if (equals <= 0 || !(POLICY_RULES as readonly string[]).includes(rule)) {
      throw new UsageError(`--policy takes read|write|destructive|<op id>=allow|ask|block, got "${escapeText(value)}"`);
    }
    const checked = rule as PolicyRule;
    if (name === "read" || name === "write" || name === "destructive") policy[name] = checked;
    else if (opIds.includes(name)) policy.ops = { ...policy.ops, [name]: checked };
    else throw new UsageError(`--policy names no op of this integration: "${escapeText(name)}"`);
  }
  return policy;
}

/** `--connection name=value` values into the grant's connection; none given is no connection. */
function connectionSettings(values: readonly string[]): Record<string, string> | undefined {
  if (values.length === 0) return undefined;
  const settings: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const value of values) {
    const equals = value.indexOf("=");
    if (equals <= 0) throw new UsageError(`--connection takes name=value, got "${escapeText(value)}"`);
    const name = value.slice(0, equals);
    if (Object.hasOwn(settings, name)) throw new UsageError(`--connection ${escapeText(name)} is given twice`);
    settings[name] = value.slice(equals + 1);
  }
  return { ...settings };
}

export interface GrantCommand {
  memberFile: string;
  botPublicKey: string;
  integration: string;
  access: string;
  ops: string[];
  tokenEnv: string;
  /** `<id>:<name>`, split at the first colon. */
  account?: string | undefined;
  /** `--connection name=value`, one per tenant setting. */
  connection?: readonly string[] | undefined;
  /** `--policy read|write|destructive|<op id>=allow|ask|block`, one rule each. */
  policy?: readonly string[] | undefined;
  kind: string;
  ttlSeconds: string;
  dir: string | undefined;
}

/**
 * `integrations grant`: the member signs a grant for one bot and seals it to the
 * bot's key. The token comes from an environment variable, never an argument, so
 * it stays out of shell history and process listings.
 */
export async function grant(command: GrantCommand, io: CommandIo): Promise<number> {
  if (command.access !== "read" && command.access !== "write") throw new UsageError('--access must be "read" or "write"');
  if (command.kind !== "pat" && command.kind !== "oauth") throw new UsageError('--kind must be "pat" or "oauth"');
  const ttlSeconds = Number(command.ttlSeconds);
  if (!Number.isSafeInteger(ttlSeconds) || ttlSeconds < 1) throw new UsageError("--ttl must be a whole number of seconds");
  const token = io.env[command.tokenEnv];
  if (token === undefined || token === "") throw new UsageError(`set the token in the environment variable ${command.tokenEnv}`);

  const account = command.account === undefined ? undefined : parseAccount(command.account);
  const registry = await resolveRegistry(command.dir, io.cwd);
  const manifest = registry.get(command.integration);
  const manifestHash = registry.manifestHash(command.integration);
  if (manifest === undefined || manifestHash === undefined) throw new UsageError(`unknown integration "${command.integration}"`);
  for (const op of command.ops) {
    const found = manifest.ops.find((candidate) => candidate.id === op);
    if (found === undefined) throw new UsageError(`${command.integration} has no op "${op}"`);
    if (command.access === "read" && found.access === "write") throw new UsageError(`"${op}" is a write; a read grant can never run it`);
  }
  const connection = connectionSettings(command.connection ?? []);
  const problems = connectionProblems(manifest.auth, connection);
  if (problems.length > 0) {
    const told = problems.map((problem) => {
      const described = manifest.auth.tenant?.[problem.setting]?.description;
      return `--connection ${escapeText(problem.setting)} ${problem.message}${described === undefined ? "" : ` (${described})`}`;
    });
    throw new UsageError(`${command.integration}: ${told.join("; ")}`);
  }
  const policy = policyRules(
    command.policy ?? [],
    manifest.ops.map((op) => op.id),
  );
  await ready();
  const member = await readKeyFile(command.memberFile, "member");
  try {
    const sealed = issueGrant({
      member,
      botPublicKey: command.botPublicKey,
      integration: command.integration,
      manifestHash,
      access: command.access,
      ...(command.ops.length > 0 ? { ops: command.ops } : {}),
      credential: { kind: command.kind, token },
      ...(account === undefined ? {} : { account }),
      ...(connection === undefined ? {} : { connection, auth: manifest.auth }),
      ...(policy === undefined ? {} : { policy }),
      ttlSeconds,
    });
    io.stdout(`${sealed}\n`);
    io.stderr(
      `${command.access} grant for ${command.integration}${account === undefined ? "" : ` as ${escapeText(account.name)} (${escapeText(account.id)})`}${command.ops.length > 0 ? ` (${command.ops.join(", ")})` : ""}, valid ${ttlSeconds} s\n`,
    );
    return 0;
  } catch (error) {
    if (GrantError.isInstance(error)) throw new UsageError(`${error.code}: ${error.message}`);
    throw error;
  }
}

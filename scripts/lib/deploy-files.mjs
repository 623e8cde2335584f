// Readers of the deploy/ files (Dockerfiles, compose.yaml, systemd units), just enough
// for deploy-files.test.ts to hold them to the apps' environment schemas.

/** A Dockerfile's instructions, continuation lines joined and comments dropped: `{ instruction, args, line }`. */
export function parseDockerfile(text) {
  /** @type {{ instruction: string; args: string; line: number }[]} */
  const instructions = [];
  let pending = "";
  let startLine = 0;
  text.split("\n").forEach((raw, index) => {
    const line = raw.trim();
    if (pending === "" && (line === "" || line.startsWith("#"))) return;
    if (pending === "") startLine = index + 1;
    if (line.startsWith("#")) return;
    if (line.endsWith("\\")) {
      pending += `${line.slice(0, -1)} `;
      return;
    }
    const whole = `${pending}${line}`.trim();
    pending = "";
    const match = /^(\S+)\s*(.*)$/.exec(whole);
    if (match !== null) instructions.push({ instruction: match[1].toUpperCase(), args: match[2], line: startLine });
  });
  return instructions;
}

/** The stages of a parsed Dockerfile: `{ name, instructions }`, in order. */
export function dockerStages(instructions) {
  /** @type {{ name: string | undefined; from: string; instructions: { instruction: string; args: string; line: number }[] }[]} */
  const stages = [];
  for (const item of instructions) {
    if (item.instruction === "FROM") {
      const name = /\sAS\s+(\S+)$/i.exec(item.args)?.[1];
      stages.push({ name, from: item.args.split(/\s+/)[0], instructions: [] });
    } else stages.at(-1)?.instructions.push(item);
  }
  return stages;
}

/** `COPY [--from=x] [--chown=..] src... dest` as `{ from, sources, destination }`. */
export function parseCopy(args) {
  const words = args.split(/\s+/);
  const flags = words.filter((word) => word.startsWith("--"));
  const paths = words.filter((word) => !word.startsWith("--"));
  const from = flags.find((flag) => flag.startsWith("--from="))?.slice("--from=".length);
  return { from, sources: paths.slice(0, -1), destination: paths.at(-1) };
}

/** `ENV NAME=value` (or the old `ENV NAME value`): the names. */
export function envNames(args) {
  if (!args.includes("=")) return [args.split(/\s+/)[0]];
  return [...args.matchAll(/(?:^|\s)([A-Za-z_][A-Za-z0-9_]*)=/g)].map((match) => match[1]);
}

/**
 * The environment of each service of a compose file written as deploy/compose.yaml is:
 * `services:` at the top, a service per two-space key, `environment:` as a map at four
 * spaces, its variables at six. Anything else (a list-style environment) is refused.
 */
export function composeEnvironments(text) {
  /** @type {Record<string, { environment: Record<string, string>; keys: string[] }>} */
  const services = {};
  let section = "";
  let service;
  let inEnvironment = false;
  for (const raw of text.split("\n")) {
    if (raw.trim() === "" || raw.trim().startsWith("#")) continue;
    const indent = raw.length - raw.trimStart().length;
    const line = raw.trim();
    if (indent === 0) {
      section = line.replace(/:.*$/, "");
      service = undefined;
      inEnvironment = false;
    } else if (section === "services" && indent === 2) {
      service = line.replace(/:.*$/, "");
      services[service] = { environment: {}, keys: [] };
      inEnvironment = false;
    } else if (service !== undefined && indent === 4) {
      const key = line.replace(/:.*$/, "");
      services[service].keys.push(key);
      inEnvironment = key === "environment";
      if (inEnvironment && line !== "environment:") throw new Error(`${service}: write environment as a map, one variable a line`);
    } else if (service !== undefined && inEnvironment && indent === 6) {
      const match = /^([A-Za-z_][A-Za-z0-9_]*):\s*(.*)$/.exec(line);
      if (match === null) throw new Error(`${service}: cannot read the environment line ${line}`);
      services[service].environment[match[1]] = match[2];
    }
  }
  return services;
}

/** A systemd unit's `[Service]` settings, every value of a repeated key kept: `{ key: [values] }`. */
export function unitSettings(text, section = "Service") {
  /** @type {Record<string, string[]>} */
  const settings = {};
  let current = "";
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header !== null) {
      current = header[1];
      continue;
    }
    if (current !== section) continue;
    const equals = line.indexOf("=");
    const key = line.slice(0, equals);
    (settings[key] ??= []).push(line.slice(equals + 1));
  }
  return settings;
}

/** `Environment=A=1 B=2` lines: the names. */
export function unitEnvironmentNames(settings) {
  return (settings.Environment ?? []).flatMap((value) => [...value.matchAll(/(?:^|\s)"?([A-Za-z_][A-Za-z0-9_]*)=/g)].map((match) => match[1]));
}

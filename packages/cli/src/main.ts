import { join } from "node:path";
import { RegistryError } from "@eleven-integrations/loader";
import { confirm } from "./commands/confirm.js";
import { grant } from "./commands/grant.js";
import { graphqlCheck } from "./commands/graphql-check.js";
import { keys } from "./commands/keys.js";
import { openapiCheck } from "./commands/openapi-check.js";
import { openapiImport } from "./commands/openapi-import.js";
import { list } from "./commands/list.js";
import { mcp } from "./commands/mcp.js";
import { registrySign, registryVerify } from "./commands/registry.js";
import { revoke } from "./commands/revoke.js";
import { run } from "./commands/run.js";
import { search } from "./commands/search.js";
import { show } from "./commands/show.js";
import { validate } from "./commands/validate.js";
import { processIo, UsageError, type CommandIo } from "./io.js";
import { SpecError } from "./openapi/spec-error.js";
import { opArgs } from "./op-args.js";
import { oneFlag, parseArgs, type ParsedArgs } from "./parse-args.js";
import { defaultSidecarAddress, sidecarHome } from "./sidecar-client.js";
import { escapeText } from "./terminal-text.js";

export const USAGE = `usage: integrations <command>

  validate [dir]            check every manifest in dir (default: the repository's manifests)
  list [--dir d]            list the integrations
  show <id> [--dir d] [--json]
                            show one integration's auth and ops
  keys member|bot|release --out <file>
                            a new key pair in a 0600 file; prints the public key
  registry sign --key <release key file> [--key <file>]... --sequence <n>
        [--previous <release file>] [--out <file>] [dir]
                            validate dir and write a signed registry release
  registry verify --keys <public key,...> <release file>
                            check a release: a trusted signature, every manifest loads
  grant --member <file> --bot <public key> --integration <id> --access read|write
        [--op <id>]... [--kind pat|oauth] [--ttl 3600] [--token-env INTEGRATION_TOKEN]
                            sign and seal a grant for one bot; the token is read from
                            the environment variable, never from an argument
  confirm --member <file> --gid <gid> <integration> <op> [--arg k=v]... [--expect-digest d] [--yes]
                            show the op's confirm line and details for these args, ask,
                            and sign the tap (--yes: sign without asking, for scripts)
  revoke --member <file> --grant @file|-
                            sign the revocation of a grant you issued (printed: the
                            bot posts it to its sidecar's /v1/revoke)
  openapi check <manifest> --spec <file> [--allow <file>] [--json]
                            check every op against the provider's OpenAPI description
  openapi import --spec <file> --operation <operationId|METHOD /path> [--id <op id>] [--json]
                            print a draft op for one operation of the description
  graphql check <manifest> --schema <file.graphql> [--allow <file>] [--json]
                            check every op's GraphQL query against the schema
  run <integration> <op> --grant @file|- [--arg k=v]... [--confirmation @file|-] [--page <next_page>]
      [--sidecar unix:/path/sidecar.sock|http://127.0.0.1:PORT] [--caller-token-file <file>]
                            ask a sidecar to run the op; prints the envelope. Grants and
                            confirmations are read from a file or standard input, never
                            from the command line (every local user can read it).
                            Default sidecar: unix:$SIDECAR_HOME/sidecar.sock. With more
                            to read the envelope has next_page: pass it to --page, same args
  search <words...> [--category c] [--access read|write] [--limit n] [--json]
         [--dir d | --broker <url> | --sidecar unix:/path|http://127.0.0.1:PORT [--grant @file|-]...
          [--caller-token-file f]]
                            rank integrations and ops; with a sidecar and the bot's
                            grants, say for each op whether it is ready or what is missing
  mcp [--sidecar unix:/path|http://127.0.0.1:PORT] --grant @file [--grant @file]... [--caller-token-file f]
                            a Model Context Protocol server on stdio whose tools are
                            the ops the grants allow; every call goes through the sidecar
`;

function noPositionals(args: ParsedArgs, command: string): void {
  if (args.positionals.length > 0) throw new UsageError(`${command} takes no positional arguments, got "${args.positionals[0]}"`);
}

/** Runs one command line; resolves to the exit code (0 ok, 1 failed, 2 usage). */
export async function main(argv: readonly string[], io: CommandIo = processIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "validate": {
        const args = parseArgs(rest, { values: [] });
        if (args.positionals.length > 1) throw new UsageError("validate takes at most one folder");
        return await validate(args.positionals[0], io);
      }
      case "list": {
        const args = parseArgs(rest, { values: ["dir"] });
        if (args.positionals.length > 0) throw new UsageError(`list takes no arguments, got "${args.positionals[0]}"`);
        return await list(oneFlag(args, "dir"), io);
      }
      case "show": {
        const args = parseArgs(rest, { values: ["dir"], booleans: ["json"] });
        if (args.positionals.length > 1) throw new UsageError("show takes one integration id");
        return await show(args.positionals[0], oneFlag(args, "dir"), args.flags.has("json"), io);
      }
      case "keys": {
        const args = parseArgs(rest, { values: ["out"] });
        if (args.positionals.length !== 1) throw new UsageError("keys takes one kind: member, bot or release");
        return await keys(args.positionals[0], oneFlag(args, "out"), io);
      }
      case "registry": {
        const [sub, ...more] = rest;
        if (sub === "sign") {
          const args = parseArgs(more, { values: ["key", "sequence", "previous", "out"] });
          if (args.positionals.length > 1) throw new UsageError("registry sign takes at most one folder");
          return await registrySign(
            {
              keyFiles: args.flags.get("key") ?? [],
              sequence: oneFlag(args, "sequence", { required: true }),
              previousFile: oneFlag(args, "previous"),
              out: oneFlag(args, "out"),
              dir: args.positionals[0],
            },
            io,
          );
        }
        if (sub === "verify") {
          const args = parseArgs(more, { values: ["keys"] });
          if (args.positionals.length !== 1) throw new UsageError("registry verify takes one release file");
          return await registryVerify(oneFlag(args, "keys"), args.positionals[0], io);
        }
        throw new UsageError('registry needs "sign" or "verify"');
      }
      case "grant": {
        const args = parseArgs(rest, { values: ["member", "bot", "integration", "access", "op", "kind", "ttl", "token-env", "dir"] });
        noPositionals(args, "grant");
        return await grant(
          {
            memberFile: oneFlag(args, "member", { required: true }),
            botPublicKey: oneFlag(args, "bot", { required: true }),
            integration: oneFlag(args, "integration", { required: true }),
            access: oneFlag(args, "access", { required: true }),
            ops: args.flags.get("op") ?? [],
            kind: oneFlag(args, "kind") ?? "pat",
            ttlSeconds: oneFlag(args, "ttl") ?? "3600",
            tokenEnv: oneFlag(args, "token-env") ?? "INTEGRATION_TOKEN",
            dir: oneFlag(args, "dir"),
          },
          io,
        );
      }
      case "confirm": {
        const args = parseArgs(rest, { values: ["member", "gid", "arg", "expect-digest", "dir"], booleans: ["yes"] });
        const [integration, op, ...extra] = args.positionals;
        if (integration === undefined || op === undefined || extra.length > 0) throw new UsageError("confirm takes <integration> <op>");
        return await confirm(
          {
            memberFile: oneFlag(args, "member", { required: true }),
            gid: oneFlag(args, "gid", { required: true }),
            integration,
            op,
            args: opArgs(args.flags.get("arg") ?? []),
            expectDigest: oneFlag(args, "expect-digest"),
            dir: oneFlag(args, "dir"),
            yes: args.flags.has("yes"),
          },
          io,
        );
      }
      case "revoke": {
        const args = parseArgs(rest, { values: ["member", "grant"] });
        noPositionals(args, "revoke");
        return await revoke({ memberFile: oneFlag(args, "member", { required: true }), grant: oneFlag(args, "grant", { required: true }) }, io);
      }
      case "run": {
        const args = parseArgs(rest, { values: ["grant", "arg", "confirmation", "page", "sidecar", "caller-token-file"] });
        const [integration, op, ...extra] = args.positionals;
        if (integration === undefined || op === undefined || extra.length > 0) throw new UsageError("run takes <integration> <op>");
        const home = sidecarHome(io.env);
        return await run(
          {
            integration,
            op,
            args: opArgs(args.flags.get("arg") ?? []),
            grant: oneFlag(args, "grant", { required: true }),
            confirmation: oneFlag(args, "confirmation"),
            page: oneFlag(args, "page"),
            sidecar: oneFlag(args, "sidecar") ?? defaultSidecarAddress(io.env),
            callerTokenFile: oneFlag(args, "caller-token-file") ?? join(home, "caller-token"),
          },
          io,
        );
      }
      case "openapi": {
        const [sub, ...more] = rest;
        if (sub === "check") {
          const args = parseArgs(more, { values: ["spec", "allow"], booleans: ["json"] });
          if (args.positionals.length !== 1) throw new UsageError("openapi check takes one manifest file: integrations openapi check <manifest> --spec <file>");
          return await openapiCheck(
            { manifest: args.positionals[0] as string, spec: oneFlag(args, "spec", { required: true }), allow: oneFlag(args, "allow"), json: args.flags.has("json") },
            io,
          );
        }
        if (sub === "import") {
          const args = parseArgs(more, { values: ["spec", "operation", "id"], booleans: ["json"] });
          noPositionals(args, "openapi import");
          return await openapiImport(
            { spec: oneFlag(args, "spec", { required: true }), operation: oneFlag(args, "operation", { required: true }), id: oneFlag(args, "id"), json: args.flags.has("json") },
            io,
          );
        }
        throw new UsageError(sub === undefined ? "openapi needs a subcommand: check or import" : `unknown openapi subcommand "${sub}"`);
      }
      case "graphql": {
        const [sub, ...more] = rest;
        if (sub !== "check") throw new UsageError(sub === undefined ? "graphql needs a subcommand: check" : `unknown graphql subcommand "${sub}"`);
        const args = parseArgs(more, { values: ["schema", "allow"], booleans: ["json"] });
        if (args.positionals.length !== 1) throw new UsageError("graphql check takes one manifest file: integrations graphql check <manifest> --schema <file.graphql>");
        return await graphqlCheck(
          { manifest: args.positionals[0] as string, schema: oneFlag(args, "schema", { required: true }), allow: oneFlag(args, "allow"), json: args.flags.has("json") },
          io,
        );
      }
      case "search": {
        const args = parseArgs(rest, { values: ["dir", "broker", "sidecar", "grant", "caller-token-file", "category", "access", "limit"], booleans: ["json"] });
        if (args.positionals.length === 0) throw new UsageError("search takes the words to look for");
        const home = sidecarHome(io.env);
        return await search(
          {
            words: args.positionals.join(" "),
            dir: oneFlag(args, "dir"),
            broker: oneFlag(args, "broker"),
            sidecar: oneFlag(args, "sidecar"),
            callerTokenFile: oneFlag(args, "caller-token-file") ?? join(home, "caller-token"),
            grants: args.flags.get("grant") ?? [],
            category: oneFlag(args, "category"),
            access: oneFlag(args, "access"),
            limit: oneFlag(args, "limit"),
            json: args.flags.has("json"),
          },
          io,
        );
      }
      case "mcp": {
        const args = parseArgs(rest, { values: ["sidecar", "grant", "caller-token-file"] });
        noPositionals(args, "mcp");
        const home = sidecarHome(io.env);
        return await mcp(
          {
            sidecar: oneFlag(args, "sidecar") ?? defaultSidecarAddress(io.env),
            callerTokenFile: oneFlag(args, "caller-token-file") ?? join(home, "caller-token"),
            grants: args.flags.get("grant") ?? [],
          },
          io,
        );
      }
      case undefined:
      case "help":
      case "--help":
        io.stdout(USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    if (SpecError.isInstance(error)) {
      io.stderr(`integrations: ${escapeText(error.message)}\n`);
      return 2;
    }
    if (RegistryError.isInstance(error)) {
      // A manifest that does not load: every problem, escaped (a problem can quote manifest text).
      for (const issue of error.issues) io.stderr(`${escapeText(`${issue.file}: ${issue.path}: ${issue.message}`)}\n`);
      io.stderr(`${error.issues.length} problem${error.issues.length === 1 ? "" : "s"}: nothing loaded\n`);
      return 1;
    }
    if (!UsageError.isInstance(error)) throw error;
    io.stderr(`integrations: ${escapeText(error.message)}\n\n${USAGE}`);
    return 2;
  }
}

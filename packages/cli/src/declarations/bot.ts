// Commands a bot (or its operator) runs against a sidecar: run an op, search, serve MCP.
import { opArgs } from "../op-args.js";
import { defaultCallerTokenFile, defaultSidecarAddress } from "../sidecar-home.js";
import { defineCommand } from "./declare.js";

const SIDECAR = {
  value: "unix:/path/sidecar.sock|http://127.0.0.1:PORT",
  default: { text: "$ELEVEN_SIDECAR, else unix:$SIDECAR_HOME/sidecar.sock", from: defaultSidecarAddress },
  help: "the sidecar to ask",
} as const;
const CALLER_TOKEN_FILE = {
  value: "file",
  default: { text: "$SIDECAR_HOME/caller-token", from: defaultCallerTokenFile },
  help: "the sidecar's caller token",
} as const;

export const runCommand = defineCommand({
  words: ["run"],
  audience: "bot",
  summary:
    "ask a sidecar to run the op; prints the envelope. Grants and confirmations are read from a file or standard input, never from the command line (every local user can read it). With more to read the envelope has next_page: pass it to --page, same args",
  positionals: { usage: "<integration> <op>", min: 2, message: "run takes <integration> <op>" },
  flags: {
    grant: { value: "@file|-", required: true, help: "the grant, from a file or standard input" },
    arg: { value: "name=value", repeatable: true, help: "one arg of the op (repeat the flag)" },
    confirmation: { value: "@file|-", help: "the member's signed tap, for a write" },
    page: { value: "next_page", help: "the next page of a paged read" },
    sidecar: SIDECAR,
    "caller-token-file": CALLER_TOKEN_FILE,
  },
  run: async ({ flags, positionals }, io) =>
    (await import("../commands/run.js")).run(
      {
        integration: positionals[0] as string,
        op: positionals[1] as string,
        args: opArgs(flags.arg),
        grant: flags.grant,
        confirmation: flags.confirmation,
        page: flags.page,
        sidecar: flags.sidecar,
        callerTokenFile: flags["caller-token-file"],
      },
      io,
    ),
});

export const whoamiCommand = defineCommand({
  words: ["whoami"],
  audience: "bot",
  summary: "ask a sidecar which account a grant's credential acts as (it runs the integration's identity op now); prints the answer",
  flags: {
    grant: { value: "@file|-", required: true, help: "the grant, from a file or standard input" },
    sidecar: SIDECAR,
    "caller-token-file": CALLER_TOKEN_FILE,
  },
  run: async ({ flags }, io) =>
    (await import("../commands/whoami.js")).whoami({ grant: flags.grant, sidecar: flags.sidecar, callerTokenFile: flags["caller-token-file"] }, io),
});

export const policyCommand = defineCommand({
  words: ["policy"],
  audience: "bot",
  summary:
    "ask a sidecar what each op of a grant will meet under its policy and the approvals given: runs, asks the member, or is blocked, and each approval's budget left",
  flags: {
    grant: { value: "@file|-", required: true, help: "the grant, from a file or standard input" },
    approval: { value: "@file", repeatable: true, help: "a standing approval to review with it (repeat the flag)" },
    json: { switch: true, help: "print the answer as JSON" },
    sidecar: SIDECAR,
    "caller-token-file": CALLER_TOKEN_FILE,
  },
  run: async ({ flags }, io) =>
    (await import("../commands/policy.js")).policy(
      { grant: flags.grant, approvals: flags.approval, json: flags.json, sidecar: flags.sidecar, callerTokenFile: flags["caller-token-file"] },
      io,
    ),
});

export const searchCommand = defineCommand({
  words: ["search"],
  audience: "bot",
  summary:
    "rank integrations and ops in the local registry, a broker's, or a sidecar's; with a sidecar and the bot's grants, say for each op whether it is ready or what is missing",
  positionals: { usage: "<words...>", min: 1, max: Number.POSITIVE_INFINITY, message: "search takes the words to look for" },
  flags: {
    category: { value: "category", help: "only this category" },
    access: { value: "read|write", help: "only reads or only writes" },
    limit: { value: "n", help: "at most n results" },
    json: { switch: true, help: "print the answer as JSON" },
    dir: { value: "folder", help: "search these manifests" },
    broker: { value: "url", help: "search a broker's catalog" },
    sidecar: { value: "unix:/path|http://127.0.0.1:PORT", help: "search through a sidecar, with readiness" },
    grant: { value: "@file|-", repeatable: true, help: "a grant the bot holds (with --sidecar; repeat the flag)" },
    "caller-token-file": CALLER_TOKEN_FILE,
  },
  run: async ({ flags, positionals }, io) =>
    (await import("../commands/search.js")).search(
      {
        words: positionals.join(" "),
        dir: flags.dir,
        broker: flags.broker,
        sidecar: flags.sidecar,
        callerTokenFile: flags["caller-token-file"],
        grants: flags.grant,
        category: flags.category,
        access: flags.access,
        limit: flags.limit,
        json: flags.json,
      },
      io,
    ),
});

export const mcpCommand = defineCommand({
  words: ["mcp"],
  audience: "bot",
  summary: "a Model Context Protocol server on stdio whose tools are the ops the grants allow; every call goes through the sidecar",
  flags: {
    grant: { value: "@file", repeatable: true, help: "a grant whose ops become tools (repeat the flag)" },
    approval: { value: "@file", repeatable: true, help: "a standing approval the member signed: a write it covers runs with no tap (repeat the flag)" },
    sidecar: SIDECAR,
    "caller-token-file": CALLER_TOKEN_FILE,
  },
  run: async ({ flags }, io) =>
    (await import("../commands/mcp.js")).mcp(
      { sidecar: flags.sidecar, callerTokenFile: flags["caller-token-file"], grants: flags.grant, approvals: flags.approval },
      io,
    ),
});

export const auditVerifyCommand = defineCommand({
  words: ["audit", "verify"],
  audience: "bot",
  summary:
    "check a sidecar's hash-chained audit files, oldest first (rotated audit.log.<time> files, then audit.log), against its signed checkpoints: prints the head hash, or exits 1 naming the first line where the chain breaks (a line changed, removed or reordered) or where the journal no longer matches a checkpoint (lines removed from its end)",
  positionals: { usage: "<file...>", min: 1, max: 100_000, message: "audit verify takes the audit files, oldest first" },
  flags: {
    head: {
      value: "hash",
      help: "a head hash recorded before: it must be a line of the files (they may have grown since), so a changed or removed line up to it is caught",
    },
    checkpoints: {
      value: "file|none",
      help: "the sidecar's signed checkpoints of the journal's head (default: audit.checkpoints beside the last file): lines removed from the end, or a middle rewritten with later hashes recomputed, no longer match them",
    },
    key: { value: "public key", help: "the key the checkpoints must be signed with: the sidecar's receipt_key (GET /v1/identity)" },
  },
  run: async ({ flags, positionals }, io) =>
    (await import("../commands/audit-verify.js")).auditVerify(positionals, flags.head, io, { checkpoints: flags.checkpoints, key: flags.key }),
});

export const receiptVerifyCommand = defineCommand({
  words: ["receipt", "verify"],
  audience: "bot",
  summary:
    "check a write's receipt (ew1.…, the run's receipt field) against the sidecar's receipt_key (GET /v1/identity): prints the signed payload (what ran, under which grant, confirmation and registry, and how it ended), or exits 1 with the reason",
  positionals: { usage: "@file|-", min: 1, message: "receipt verify takes the receipt as @file or - (standard input)" },
  flags: { key: { value: "receipt_key", required: true, help: "the sidecar's receipt public key (receipt_key in GET /v1/identity)" } },
  run: async ({ flags, positionals }, io) => (await import("../commands/receipt-verify.js")).receiptVerify(flags.key, positionals[0], io),
});

// Commands a member runs: make keys, grant a bot access, confirm a write, revoke a grant.
import { opArgs } from "../op-args.js";
import { defineCommand } from "./declare.js";

const DIR = { value: "folder", help: "the manifests to read (default: the registry this command ships with)" } as const;

export const keysCommand = defineCommand({
  words: ["keys"],
  audience: "member",
  summary:
    "a new key pair in a 0600 file; prints the public key (member: Ed25519 to sign grants; bot: X25519 to open them; release: Ed25519 to sign registry releases)",
  positionals: { usage: "member|bot|release", min: 1, message: "keys takes one kind: member, bot or release" },
  flags: { out: { value: "file", required: true, help: "where to write the key pair (created 0600)" } },
  run: async ({ flags, positionals }, io) => (await import("../commands/keys.js")).keys(positionals[0], flags.out, io),
});

export const grantCommand = defineCommand({
  words: ["grant"],
  audience: "member",
  summary: "sign and seal a grant for one bot; the token is read from the environment variable, never from an argument",
  flags: {
    member: { value: "file", required: true, help: "your member key file (integrations keys member)" },
    bot: { value: "public key", required: true, help: "the bot's public key, which its sidecar prints" },
    integration: { value: "id", required: true, help: "the integration the grant is for" },
    access: { value: "read|write", required: true, help: "read runs reads only; write runs writes too, each after your confirmation" },
    op: { value: "op id", repeatable: true, help: "allow only these ops (repeat the flag); default every op the access allows" },
    kind: { value: "pat|oauth", default: "pat", help: "what the token is" },
    ttl: { value: "seconds", default: "3600", help: "how long the grant lasts (at most 3600)" },
    "token-env": { value: "name", default: "INTEGRATION_TOKEN", help: "the environment variable holding the token" },
    account: { value: "id:name", help: "which of your accounts at the provider the token acts as (shown to the bot, in its palette and audit line)" },
    connection: {
      value: "name=value",
      repeatable: true,
      help: "a tenant setting of the connection (repeat the flag), checked against the manifest's own pattern: account_sid=AC… for Twilio, subdomain=acme for Zendesk",
    },
    policy: {
      value: "class|op=rule",
      repeatable: true,
      help: "your policy, signed in the grant (repeat the flag): read, write or destructive, or an op id, = allow, ask or block (a write always needs your tap or approval)",
    },
    dir: DIR,
  },
  run: async ({ flags }, io) =>
    (await import("../commands/grant.js")).grant(
      {
        memberFile: flags.member,
        botPublicKey: flags.bot,
        integration: flags.integration,
        access: flags.access,
        ops: flags.op,
        kind: flags.kind,
        ttlSeconds: flags.ttl,
        tokenEnv: flags["token-env"],
        account: flags.account,
        connection: flags.connection,
        policy: flags.policy,
        dir: flags.dir,
      },
      io,
    ),
});

export const confirmCommand = defineCommand({
  words: ["confirm"],
  audience: "member",
  summary: "show the op's confirm line and details for these args, ask, and sign the tap (--yes: sign without asking, for scripts)",
  positionals: { usage: "<integration> <op>", min: 2, message: "confirm takes <integration> <op>" },
  flags: {
    member: { value: "file", required: true, help: "your member key file" },
    gid: { value: "gid", required: true, help: "the grant's id, from the bot's confirmation_required answer" },
    arg: { value: "name=value", repeatable: true, help: "one arg of the write (repeat the flag)" },
    "expect-digest": { value: "digest", help: "refuse unless the args hash to this args_digest (from the bot's answer)" },
    preview: {
      value: "@file|-",
      help: "the preview the bot's answer gave (for a write that shows what it touches): shown before asking, signed with the line",
    },
    dir: DIR,
    yes: { switch: true, help: "sign without asking" },
  },
  run: async ({ flags, positionals }, io) =>
    (await import("../commands/confirm.js")).confirm(
      {
        memberFile: flags.member,
        gid: flags.gid,
        integration: positionals[0] as string,
        op: positionals[1] as string,
        args: opArgs(flags.arg),
        expectDigest: flags["expect-digest"],
        preview: flags.preview,
        dir: flags.dir,
        yes: flags.yes,
      },
      io,
    ),
});

export const approveCommand = defineCommand({
  words: ["approve"],
  audience: "member",
  summary:
    "sign a standing approval: one write op runs with no tap while its args stay in the room you give each and its budget lasts (every arg needs --arg, --in, --range or --any)",
  positionals: { usage: "<integration> <op>", min: 2, message: "approve takes <integration> <op>" },
  flags: {
    member: { value: "file", required: true, help: "your member key file" },
    bot: { value: "public key", required: true, help: "the bot's public key, which its sidecar prints" },
    arg: { value: "name=value", repeatable: true, help: 'exactly this value (repeat the flag; the args of a tap make it "always allow this")' },
    in: { value: "name=a|b", repeatable: true, help: "one of these values" },
    range: { value: "name=min..max", repeatable: true, help: "a number from min to max (either end may be left out)" },
    any: { value: "name", repeatable: true, help: "any value, said explicitly" },
    runs: { value: "n", required: true, help: "at most n runs per window" },
    per: { value: "hour|day|week|seconds", default: "day", help: "the budget's window" },
    sum: { value: "arg:max", help: "at most max summed over a numeric arg per window" },
    event: { value: "event id", help: "only writes made in answer to this event type" },
    ttl: { value: "seconds", default: "604800", help: "how long the approval lasts (at most 30 days)" },
    dir: DIR,
    yes: { switch: true, help: "sign without asking" },
  },
  run: async ({ flags, positionals }, io) =>
    (await import("../commands/approve.js")).approve(
      {
        memberFile: flags.member,
        botPublicKey: flags.bot,
        integration: positionals[0] as string,
        op: positionals[1] as string,
        eq: opArgs(flags.arg),
        oneOf: flags.in,
        range: flags.range,
        any: flags.any,
        runs: flags.runs,
        per: flags.per,
        sum: flags.sum,
        event: flags.event,
        ttl: flags.ttl,
        dir: flags.dir,
        yes: flags.yes,
      },
      io,
    ),
});

export const revokeCommand = defineCommand({
  words: ["revoke"],
  audience: "member",
  summary: "sign the revocation of a grant you issued (printed: the bot posts it to its sidecar's /v1/revoke)",
  flags: {
    member: { value: "file", required: true, help: "the member key file that issued the grant" },
    grant: { value: "@file|-", required: true, help: "the grant, from a file or standard input" },
  },
  run: async ({ flags }, io) => (await import("../commands/revoke.js")).revoke({ memberFile: flags.member, grant: flags.grant }, io),
});

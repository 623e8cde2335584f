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

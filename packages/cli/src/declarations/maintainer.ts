// Commands a registry maintainer runs: validate, list and show manifests, sign and verify releases.
import { defineCommand } from "./declare.js";

const DIR = { value: "folder", help: "the manifests to read (default: the registry this command ships with)" } as const;

export const validateCommand = defineCommand({
  words: ["validate"],
  audience: "maintainer",
  summary: "check every manifest in dir (default: the repository's manifests)",
  positionals: { usage: "[dir]", min: 0, max: 1, message: "validate takes at most one folder" },
  flags: { strict: { switch: true, help: "refuse a manifest that breaks a catalog rule (read-method, two-reads, ...), not only warn" } },
  run: async ({ flags, positionals }, io) => (await import("../commands/validate.js")).validate(positionals[0], io, { strict: flags.strict }),
});

export const listCommand = defineCommand({
  words: ["list"],
  audience: "maintainer",
  summary: "list the integrations",
  positionals: { usage: "", min: 0, message: "list takes no arguments" },
  flags: { dir: DIR },
  run: async ({ flags }, io) => (await import("../commands/list.js")).list(flags.dir, io),
});

export const showCommand = defineCommand({
  words: ["show"],
  audience: "maintainer",
  summary: "show one integration's auth and ops",
  positionals: { usage: "<id>", min: 0, max: 1, message: "show takes one integration id" },
  flags: { dir: DIR, json: { switch: true, help: "print the manifest as JSON" } },
  run: async ({ flags, positionals }, io) => (await import("../commands/show.js")).show(positionals[0], flags.dir, flags.json, io),
});

export const registrySignCommand = defineCommand({
  words: ["registry", "sign"],
  audience: "maintainer",
  summary: "validate dir and write a signed registry release",
  positionals: { usage: "[dir]", min: 0, max: 1, message: "registry sign takes at most one folder" },
  flags: {
    key: { value: "release key file", repeatable: true, help: "a release key that signs (repeat the flag for more signatures)" },
    sequence: { value: "n", required: true, help: "the release's sequence number, above the previous one's" },
    previous: { value: "release file", help: "the release this one follows" },
    out: { value: "file", help: "where to write the release (default: standard output)" },
  },
  run: async ({ flags, positionals }, io) =>
    (await import("../commands/registry.js")).registrySign(
      { keyFiles: flags.key, sequence: flags.sequence, previousFile: flags.previous, out: flags.out, dir: positionals[0] },
      io,
    ),
});

export const registryVerifyCommand = defineCommand({
  words: ["registry", "verify"],
  audience: "maintainer",
  summary: "check a release: a trusted signature, every manifest loads",
  positionals: { usage: "<release file>", min: 1, message: "registry verify takes one release file" },
  flags: { keys: { value: "public key,...", help: "the trusted release public keys" } },
  run: async ({ flags, positionals }, io) => (await import("../commands/registry.js")).registryVerify(flags.keys, positionals[0], io),
});

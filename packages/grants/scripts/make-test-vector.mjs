// Writes src/__fixtures__/test-vector.json with sodium-native and hand-built
// bytes only (none of this package's code), so the vector checks our code
// against an independent construction. The sealed token differs on every run
// (crypto_box_seal uses a fresh ephemeral key); everything else is fixed.
import { createRequire } from "node:module";
import { writeFileSync } from "node:fs";

const sodium = createRequire(import.meta.url)("sodium-native");
const b64 = (bytes) => Buffer.from(bytes).toString("base64url");
const range = (start, length) => Buffer.from(Array.from({ length }, (_, index) => start + index));
const lengthPrefixed = (parts) =>
  Buffer.concat(
    parts.flatMap((part) => {
      const length = Buffer.alloc(4);
      length.writeUInt32BE(part.length);
      return [length, part];
    }),
  );
const blake2b256 = (bytes) => {
  const out = Buffer.alloc(32);
  sodium.crypto_generichash(out, bytes);
  return out;
};

const memberSeed = range(0x00, 32);
const memberPublic = Buffer.alloc(32);
const memberSecret = Buffer.alloc(64);
sodium.crypto_sign_seed_keypair(memberPublic, memberSecret, memberSeed);
const botSeed = range(0x20, 32);
const botPublic = Buffer.alloc(32);
const botSecret = Buffer.alloc(32);
sodium.crypto_box_seed_keypair(botPublic, botSecret, botSeed);

const now = 1767225600; // 2026-01-01T00:00:00Z
// Keys in RFC 8785 order (sorted by UTF-16 code units), written by hand.
const grant = {
  access: "write",
  aud: b64(botPublic),
  cred: { kind: "pat", token: "ghp_TestVectorToken0123456789" },
  exp: now + 3600,
  gid: b64(range(0x40, 16)),
  iat: now,
  integration: "github",
  iss: b64(memberPublic),
  manifest_hash: "3f".repeat(32),
  ops: ["issues.create", "issues.list"],
  typ: "grant",
  v: 1,
};
const grantPayload = Buffer.from(JSON.stringify(grant), "utf8");
const grantMessage = lengthPrefixed([Buffer.from("eleven.grant.v1"), botPublic, grantPayload]);
const grantSignature = Buffer.alloc(64);
sodium.crypto_sign_detached(grantSignature, grantMessage, memberSecret);
const grantPlain = Buffer.concat([grantSignature, grantPayload]);
const grantSealed = Buffer.alloc(grantPlain.length + sodium.crypto_box_SEALBYTES);
sodium.crypto_box_seal(grantSealed, grantPlain, botPublic);

const args = { repo: "octo/hello", title: "Fix the \u202Ebug" };
const template = "Create issue {title} in {repo}";
const line = "Create issue Fix the \uFFFDbug in octo/hello";
const argsJson = `{"repo":${JSON.stringify(args.repo)},"title":${JSON.stringify(args.title)}}`;
const confirmation = {
  args_digest: b64(blake2b256(Buffer.from(argsJson, "utf8"))),
  exp: now + 300,
  gid: grant.gid,
  line_digest: b64(blake2b256(Buffer.from(line, "utf8"))),
  nonce: b64(range(0x50, 16)),
  op: "issues.create",
  v: 1,
};
const confirmationPayload = Buffer.from(JSON.stringify(confirmation), "utf8");
const confirmationMessage = lengthPrefixed([Buffer.from("eleven.confirm.v1"), confirmationPayload]);
const confirmationSignature = Buffer.alloc(64);
sodium.crypto_sign_detached(confirmationSignature, confirmationMessage, memberSecret);

const vector = {
  note: "Written by scripts/make-test-vector.mjs with sodium-native. Keys are unpadded base64url; *_hex fields are hex.",
  now,
  member: { seed_hex: memberSeed.toString("hex"), publicKey: b64(memberPublic), secretKey: b64(memberSecret) },
  bot: { seed_hex: botSeed.toString("hex"), publicKey: b64(botPublic), secretKey: b64(botSecret) },
  grant: {
    payload: grant,
    payload_json: grantPayload.toString("utf8"),
    signed_message_hex: grantMessage.toString("hex"),
    signature: b64(grantSignature),
    token: `eg1.${b64(grantSealed)}`,
  },
  confirmation: {
    op: confirmation.op,
    args,
    args_canonical_json: argsJson,
    template,
    line,
    payload: confirmation,
    payload_json: confirmationPayload.toString("utf8"),
    signed_message_hex: confirmationMessage.toString("hex"),
    signature: b64(confirmationSignature),
    token: `ec1.${b64(Buffer.concat([confirmationSignature, confirmationPayload]))}`,
  },
};
// Non-ASCII written as \u escapes, so no bidi control sits raw in a committed file.
const json = JSON.stringify(vector, null, 2).replace(/[^\x20-\x7e\n]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
writeFileSync(new URL("../src/__fixtures__/test-vector.json", import.meta.url), `${json}\n`);

// Grant opening, confirmation checks and receipts against the bare libsodium calls they
// are built on, measured in the same run on the same bytes. Goal: at most 1.15x for
// grants and confirmations; receipts' goals are beside them.
import sodium from "libsodium-wrappers";
import {
  generateBotKeys,
  generateMemberKeys,
  generateReceiptKeys,
  issueGrant,
  resultDigest,
  signReceipt,
  verifyReceipt,
  openGrant,
  ready,
  renderConfirm,
  ReplayCache,
  signConfirmation,
  verifyConfirmation,
} from "@eleven-integrations/grants";

const ROUNDS = 400;
const BATCH = 8;
const NOW = 1_767_225_600;
const encoder = new TextEncoder();

/** Length-prefixed parts, as the grants README specifies the signed message. */
function signedMessage(parts) {
  const total = parts.reduce((sum, part) => sum + 4 + part.length, 0);
  const message = new Uint8Array(total);
  const view = new DataView(message.buffer);
  let offset = 0;
  for (const part of parts) {
    view.setUint32(offset, part.length);
    message.set(part, offset + 4);
    offset += 4 + part.length;
  }
  return message;
}

const b64 = (text) => sodium.from_base64(text, sodium.base64_variants.URLSAFE_NO_PADDING);

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Microseconds per op of `step` over one batch of `BATCH` calls. */
function batch(step, counter) {
  const start = performance.now();
  for (let index = 0; index < BATCH; index++) step(counter.next++);
  return ((performance.now() - start) * 1000) / BATCH;
}

/**
 * Runs the two in alternating batches of a few ops (a few milliseconds), so load
 * from other processes and clock changes hit both alike, swapping which goes
 * first each round. The ratio is the median of the per-round ratios; each side's
 * ops/s is its median batch.
 */
function compare(name, floorName, ours, floor, goal = 1.15) {
  const oursCounter = { next: 0 };
  const floorCounter = { next: 0 };
  for (let warm = 0; warm < 30; warm++) {
    batch(ours, oursCounter);
    batch(floor, floorCounter);
  }
  const oursTimes = [];
  const floorTimes = [];
  const ratios = [];
  for (let round = 0; round < ROUNDS; round++) {
    let oursTime;
    let floorTime;
    if (round % 2 === 0) {
      floorTime = batch(floor, floorCounter);
      oursTime = batch(ours, oursCounter);
    } else {
      oursTime = batch(ours, oursCounter);
      floorTime = batch(floor, floorCounter);
    }
    oursTimes.push(oursTime);
    floorTimes.push(floorTime);
    ratios.push(oursTime / floorTime);
  }
  const ratio = median(ratios);
  console.log(`${name}: ${Math.round(1e6 / median(oursTimes))} ops/s`);
  console.log(`${floorName}: ${Math.round(1e6 / median(floorTimes))} ops/s`);
  console.log(`${name} ratio: ${ratio.toFixed(3)}x (goal <= ${goal}x) ${ratio <= goal ? "ok" : "OVER"}`);
}

export async function run() {
  await ready();
  await sodium.ready;
  const member = generateMemberKeys();
  const bot = generateBotKeys();
  const memberPublicKey = b64(member.publicKey);
  const botPublicKey = b64(bot.publicKey);
  const botSecretKey = b64(bot.secretKey);

  // Grants: one realistic grant opened again and again.
  const token = issueGrant({
    member,
    botPublicKey: bot.publicKey,
    integration: "github",
    manifestHash: "0123456789abcdef".repeat(4),
    access: "write",
    ops: ["issues.create", "issues.list", "repos.list"],
    credential: { kind: "pat", token: `ghp_${"x".repeat(36)}` },
    ttlSeconds: 3600,
    now: NOW,
  });
  const box = b64(token.slice(4));
  const opened = sodium.crypto_box_seal_open(box, botPublicKey, botSecretKey);
  const grantMessage = signedMessage([encoder.encode("eleven.grant.v1"), botPublicKey, opened.subarray(64)]);
  const grantSignature = opened.slice(0, 64);
  const openOptions = { bot, trustedMembers: [member.publicKey], now: NOW };
  const grant = openGrant(token, openOptions);

  compare(
    "openGrant",
    "bare crypto_box_seal_open + crypto_sign_verify_detached",
    () => openGrant(token, openOptions),
    () => {
      const plain = sodium.crypto_box_seal_open(box, botPublicKey, botSecretKey);
      if (plain.length === 0 || !sodium.crypto_sign_verify_detached(grantSignature, grantMessage, memberPublicKey)) {
        throw new Error("bare verify failed");
      }
    },
  );

  // Confirmations: each is used once, so a pool is signed up front and replayed
  // through a fresh cache whenever the pool wraps.
  const op = "issues.create";
  const args = { repo: "octo/hello", title: "Fix the flaky test in the grants bench" };
  const line = renderConfirm("Create issue {title} in {repo}", args);
  const pool = Array.from({ length: 4000 }, () => signConfirmation({ member, grant, op, args, line, now: NOW }));
  const bare = pool.map((confirmation) => {
    const bytes = b64(confirmation.slice(4));
    return {
      signature: bytes.slice(0, 64),
      message: signedMessage([encoder.encode("eleven.confirm.v1"), bytes.subarray(64)]),
    };
  });
  let replay = new ReplayCache();
  compare(
    "verifyConfirmation",
    "bare crypto_sign_verify_detached",
    (index) => {
      const at = index % pool.length;
      if (at === 0) replay = new ReplayCache();
      verifyConfirmation(pool[at], { grant, op, args, line, replay, now: NOW });
    },
    (index) => {
      const { signature, message } = bare[index % bare.length];
      if (!sodium.crypto_sign_verify_detached(signature, message, memberPublicKey)) throw new Error("bare verify failed");
    },
  );

  // Receipts: what a write adds on the sidecar (one signature, the payload checked by its
  // zod schema and canonicalised) and what a verifier pays, against the bare Ed25519 call on
  // the same bytes. Goals: signing at most 2x (the zod check of 14 fields is about as dear as
  // a third of a signature, some 20 microseconds, next to a provider round trip of
  // milliseconds), verifying at most 1.3x.
  const receiptKeys = generateReceiptKeys();
  const receiptSecretKey = b64(receiptKeys.secretKey);
  const receiptPublicKey = b64(receiptKeys.publicKey);
  const confirmationBytes = b64(pool[0].slice(4));
  const confirmed = JSON.parse(new TextDecoder().decode(confirmationBytes.subarray(64)));
  const receiptInput = {
    gid: grant.gid,
    iss: grant.iss,
    aud: grant.aud,
    integration: "github",
    op,
    manifest_hash: grant.manifest_hash,
    args_digest: confirmed.args_digest,
    line_digest: confirmed.line_digest,
    nonce: confirmed.nonce,
    status: "ok",
    http_status: 201,
    result_digest: resultDigest({ number: 42, title: args.title, state: "open" }),
    at: NOW,
    audit_id: "5b0d8c1e-6c55-4d0f-9a8e-8f3b8f9c1a2b",
    registry_hash: "fedcba9876543210".repeat(4),
  };
  const receipt = signReceipt(receiptInput, { key: receiptKeys.secretKey });
  const receiptBytes = b64(receipt.slice(4));
  const receiptMessage = signedMessage([encoder.encode("eleven.receipt.v1"), receiptBytes.subarray(64)]);
  const receiptSignature = receiptBytes.slice(0, 64);
  compare(
    "signReceipt",
    "bare crypto_sign_detached",
    () => signReceipt(receiptInput, { key: receiptKeys.secretKey }),
    () => sodium.crypto_sign_detached(receiptMessage, receiptSecretKey),
    2,
  );
  compare(
    "verifyReceipt",
    "bare crypto_sign_verify_detached",
    () => verifyReceipt(receipt, { key: receiptKeys.publicKey }),
    () => {
      if (!sodium.crypto_sign_verify_detached(receiptSignature, receiptMessage, receiptPublicKey)) throw new Error("bare verify failed");
    },
    1.3,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await run();

// What a write's receipt and the audit hash chain cost per write: the sidecar's two
// flushed audit lines (started, outcome) through its AuditLog, which chains them (prev),
// plus the receipt (signReceipt over resultDigest of the data), against the same two
// lines written and flushed as plain JSON without prev and no receipt, interleaved in
// the same run on the same file system. Prints one line: µs per write each, and the ratio.
import { closeSync, fdatasyncSync, openSync, writeSync, constants } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateReceiptKeys, ready, resultDigest, signReceipt } from "@eleven-integrations/grants";
import { AuditLog } from "@eleven-integrations/sidecar";

const ROUNDS = 20;
const WRITES = 100;
const data = { number: 7, title: "Crash on start", state: "open", html_url: "https://github.com/octocat/hello-world/issues/7" };
const b64 = (n, fill) => Buffer.alloc(n, fill).toString("base64url");
const line = (status) => ({
  time: new Date().toISOString(),
  audit_id: "0b7c6f0e-1d2a-4c8e-9f3b-5a6d7e8f9a0b",
  gid: b64(16, 1),
  member: b64(32, 2),
  integration: "github",
  op: "issues.create",
  access: "write",
  args_digest: b64(32, 3),
  account: null,
  status,
  code: null,
  http_status: status === "ok" ? 201 : null,
  duration_ms: 12.3,
});
const input = (digest) => ({
  gid: b64(16, 1),
  iss: b64(32, 2),
  aud: b64(32, 6),
  integration: "github",
  op: "issues.create",
  manifest_hash: "ab".repeat(32),
  args_digest: b64(32, 3),
  line_digest: b64(32, 4),
  nonce: b64(16, 5),
  status: "ok",
  http_status: 201,
  result_digest: digest,
  audit_id: "0b7c6f0e-1d2a-4c8e-9f3b-5a6d7e8f9a0b",
  registry_hash: "cd".repeat(32),
});

export async function run() {
  await ready();
  const keys = generateReceiptKeys();
  const dir = await mkdtemp(join(tmpdir(), "bench-receipt-"));
  const chained = new AuditLog(join(dir, "chained.log"));
  await chained.open();
  const plainFd = openSync(join(dir, "plain.log"), constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, 0o600);
  const plainAppend = (record) => {
    const bytes = Buffer.from(`${JSON.stringify(record)}\n`);
    writeSync(plainFd, bytes, 0, bytes.length);
    fdatasyncSync(plainFd);
  };

  async function withBoth() {
    const start = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    for (let i = 0; i < WRITES; i += 1) {
      await chained.append(line("started"), { durable: true });
      signReceipt(input(resultDigest(data)), { key: keys.secretKey });
      await chained.append(line("ok"), { durable: true });
    }
    const used = process.cpuUsage(cpu);
    return { wall: Number(process.hrtime.bigint() - start) / 1000 / WRITES, cpu: (used.user + used.system) / WRITES };
  }
  async function without() {
    const start = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    for (let i = 0; i < WRITES; i += 1) {
      plainAppend(line("started"));
      plainAppend(line("ok"));
    }
    const used = process.cpuUsage(cpu);
    return { wall: Number(process.hrtime.bigint() - start) / 1000 / WRITES, cpu: (used.user + used.system) / WRITES };
  }

  const a = [];
  const b = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    b.push(await without());
    a.push(await withBoth());
  }
  const median = (values) => values.sort((x, y) => x - y)[Math.floor(values.length / 2)];
  const [wallWith, wallWithout] = [median(a.map((m) => m.wall)), median(b.map((m) => m.wall))];
  const [cpuWith, cpuWithout] = [median(a.map((m) => m.cpu)), median(b.map((m) => m.cpu))];
  await chained.close();
  closeSync(plainFd);
  await rm(dir, { recursive: true, force: true });
  console.log(
    `write receipt + audit chain, per write (2 flushed chained lines + signReceipt vs 2 flushed plain lines, median of ${ROUNDS}x${WRITES}): ` +
      `wall ${wallWith.toFixed(0)} vs ${wallWithout.toFixed(0)} µs (${(wallWith / wallWithout).toFixed(2)}x), ` +
      `CPU ${cpuWith.toFixed(0)} vs ${cpuWithout.toFixed(0)} µs (${(cpuWith / cpuWithout).toFixed(2)}x, +${(cpuWith - cpuWithout).toFixed(0)} µs)`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await run();

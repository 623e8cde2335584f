import { spawn } from "node:child_process";
import { createInterface, type Interface } from "node:readline";
import type { TestCertificates } from "@eleven-integrations/test-support";

export interface EndlessBodyProcess {
  readonly port: number;
  /** The bytes the server has produced so far. */
  produced(): Promise<number>;
  close(): Promise<void>;
}

/**
 * Starts `endless-body-server.mjs` in a child process: a loopback TLS server whose answer
 * is a body of `total` bytes. Living in another process, its buffers never count in the
 * test process's memory, so the test measures only what the executor holds.
 */
export async function startEndlessBodyProcess(certificates: TestCertificates, total: number): Promise<EndlessBodyProcess> {
  const child = spawn(process.execPath, [new URL("./endless-body-server.mjs", import.meta.url).pathname], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines: Interface = createInterface({ input: child.stdout });
  const next = () => new Promise<string>((resolve) => lines.once("line", resolve));
  child.stdin.write(`${JSON.stringify({ key: certificates.key, cert: certificates.cert, total })}\n`);
  const port = Number(await next());
  return {
    port,
    produced: async () => {
      const answer = next();
      child.stdin.write("produced?\n");
      return Number(await answer);
    },
    close: async () => {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.stdin.end();
      await exited;
    },
  };
}

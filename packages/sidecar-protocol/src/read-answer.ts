import type { Dispatcher } from "undici";
import { SidecarClientError } from "./sidecar-client-error.js";

/** Reads an answer's body as text, refusing it (and dropping the connection's rest) past `maxBytes`. */
export async function readAnswer(body: Dispatcher.ResponseData["body"], headers: Dispatcher.ResponseData["headers"], maxBytes: number): Promise<string> {
  // Destroying a body undici is still reading emits `error` (aborted): ours is the error that counts.
  body.on("error", () => undefined);
  const tooLarge = () => new SidecarClientError("answer_too_large", `the sidecar's answer is larger than ${maxBytes} bytes (maxAnswerBytes)`);
  const declared = Number(headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) {
    body.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      body.destroy();
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString("utf8");
}

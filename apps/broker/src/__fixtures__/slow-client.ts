import { connect, type Socket } from "node:net";

export interface SlowAnswer {
  /** The status line's code, or undefined when the server closed without answering. */
  status: number | undefined;
  /** Milliseconds from the first byte sent until the server closed the connection. */
  closedAfterMs: number;
  /** Bytes the client had sent when the server closed. */
  sentBytes: number;
}

/**
 * A raw client on 127.0.0.1:`port` that sends `head`, then drips `drip` one
 * byte every `everyMs` until the server closes the connection (or `giveUpMs`).
 */
export function slowRequest(port: number, head: string, drip: string, everyMs: number, giveUpMs = 60_000): Promise<SlowAnswer> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket: Socket = connect({ host: "127.0.0.1", port });
    let received = "";
    let sentBytes = 0;
    let index = 0;
    let timer: NodeJS.Timeout | undefined;
    const finish = () => {
      if (timer !== undefined) clearInterval(timer);
      clearTimeout(giveUp);
      const match = /^HTTP\/1\.1 (\d{3})/.exec(received);
      resolve({ status: match === null ? undefined : Number(match[1]), closedAfterMs: Date.now() - started, sentBytes });
      socket.destroy();
    };
    const giveUp = setTimeout(finish, giveUpMs);
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1");
    });
    socket.on("close", finish);
    socket.on("error", () => undefined);
    socket.on("connect", () => {
      socket.write(head);
      sentBytes += Buffer.byteLength(head);
      timer = setInterval(() => {
        if (socket.destroyed || index >= drip.length) return;
        socket.write(drip[index] as string);
        sentBytes += 1;
        index += 1;
      }, everyMs);
    });
  });
}

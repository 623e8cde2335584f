// A raw client that drips a request one byte at a time, for the apps' timeout tests.
import { connect } from "node:net";

/**
 * Connects to 127.0.0.1:`port`, sends `head`, then drips `drip` one byte every
 * `everyMs` until the server closes the connection (or `giveUpMs` passes).
 */
export function slowRequest(port, head, drip, everyMs, giveUpMs = 60_000) {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect({ host: "127.0.0.1", port });
    let received = "";
    let sentBytes = 0;
    let index = 0;
    let timer;
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
        socket.write(drip[index]);
        sentBytes += 1;
        index += 1;
      }, everyMs);
    });
  });
}

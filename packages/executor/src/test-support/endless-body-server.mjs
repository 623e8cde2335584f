// A TLS server in its own process that answers every request with a JSON-labelled body of
// `total` bytes in 64 KiB chunks, so a test can measure the memory its client side holds without the
// server's own buffers in the same process. Reads { key, cert, total } as JSON on stdin,
// prints its port, and answers "produced?" on stdin with the bytes it has produced over all requests.
import { createServer } from "node:https";
import { createInterface } from "node:readline";

const lines = createInterface({ input: process.stdin });
let produced = 0;
let server;
lines.on("line", (line) => {
  if (server === undefined) {
    const { key, cert, total } = JSON.parse(line);
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    server = createServer({ key, cert }, (_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      let sent = 0;
      const pump = () => {
        while (sent < total) {
          sent += chunk.length;
          produced += chunk.length;
          if (!response.write(chunk)) return void response.once("drain", pump);
        }
        response.end();
      };
      response.on("close", () => response.destroy());
      pump();
    });
    server.listen(0, "127.0.0.1", () => process.stdout.write(`${server.address().port}\n`));
  } else {
    process.stdout.write(`${produced}\n`);
  }
});
lines.on("close", () => process.exit(0));

import { createServer, Socket, type AddressInfo, type Server } from "node:net";

/** A TCP proxy on 127.0.0.1 that holds every chunk sent toward the target `delayMs` before passing it on: a slow network in front of Redis. */
export interface DelayingProxy {
  readonly port: number;
  close(): Promise<void>;
}

export async function startDelayingProxy(targetPort: number, delayMs: number): Promise<DelayingProxy> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = new Socket();
    sockets.add(client).add(upstream);
    upstream.connect(targetPort, "127.0.0.1");
    client.on("data", (chunk) => setTimeout(() => upstream.write(chunk), delayMs));
    upstream.on("data", (chunk) => client.write(chunk));
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("close", end).on("error", end);
    upstream.on("close", end).on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

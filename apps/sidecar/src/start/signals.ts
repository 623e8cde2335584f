/** What `closeOnSignals` needs of `process`. */
export interface SignalSource {
  on(signal: "SIGINT" | "SIGTERM", listener: () => void): unknown;
}

/**
 * On the first SIGINT or SIGTERM, closes gracefully (requests in flight finish,
 * new connections are refused) then exits 0, or 1 if closing failed; a second
 * signal exits 1 at once.
 */
export function closeOnSignals(source: SignalSource, close: () => Promise<void>, exit: (code: number) => void): void {
  let closing = false;
  const onSignal = () => {
    if (closing) {
      exit(1);
      return;
    }
    closing = true;
    close().then(
      () => exit(0),
      () => exit(1),
    );
  };
  source.on("SIGINT", onSignal);
  source.on("SIGTERM", onSignal);
}

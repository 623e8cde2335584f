const MARKER = Symbol.for("eleven-integrations.error.AddressRefusedError");

/** A host resolved to an address that is not public unicast; nothing was sent to it. */
export class AddressRefusedError extends Error {
  readonly code = "ERR_ADDRESS_REFUSED" as const;
  private readonly [MARKER] = true;
  constructor(
    readonly hostname: string,
    readonly address: string,
  ) {
    super(`${hostname} resolved to ${address === "" ? "no address" : address}, which is not a public address`);
    this.name = "AddressRefusedError";
  }
  static isInstance(value: unknown): value is AddressRefusedError {
    return typeof value === "object" && value !== null && MARKER in value;
  }
}

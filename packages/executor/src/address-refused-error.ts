import { markedError } from "@eleven-integrations/schema";

/** A host resolved to an address that is not public unicast; nothing was sent to it. */
export class AddressRefusedError extends markedError("AddressRefusedError") {
  readonly code = "ERR_ADDRESS_REFUSED" as const;
  constructor(
    readonly hostname: string,
    readonly address: string,
  ) {
    super(`${hostname} resolved to ${address === "" ? "no address" : address}, which is not a public address`);
  }
}

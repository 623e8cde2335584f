import { readFile } from "node:fs/promises";
import { isAbsolute } from "node:path";
import { Client } from "undici";

const MARKER = Symbol.for("eleven-integrations.error.SidecarClientError");

export type SidecarClientErrorCode = "invalid_address" | "unreachable" | "caller_token_unreadable";

/** A sidecar that cannot be named or reached; the message never holds the caller token. */
export class SidecarClientError extends Error {
  readonly code: SidecarClientErrorCode;
  private readonly [MARKER] = true;
  constructor(code: SidecarClientErrorCode, message: string) {
    super(message);
    this.name = "SidecarClientError";
    this.code = code;
  }
  static isInstance(value: unknown): value is SidecarClientError {
    return typeof value === "object" && value !== null && MARKER in value;
  }
}

/** Where a sidecar listens: its Unix socket, or a loopback TCP origin. */
export type SidecarAddress = { kind: "unix"; path: string } | { kind: "tcp"; origin: string };

const LOOPBACK = new Set(["127.0.0.1", "[::1]", "localhost"]);

/**
 * Parses `unix:/absolute/path` or `http://127.0.0.1:P` (`[::1]` and `localhost`
 * too). Anything else is refused: the caller token and grants go only to a
 * socket or to this machine's loopback.
 */
export function parseSidecarAddress(text: string): SidecarAddress {
  if (text.startsWith("unix:")) {
    const path = text.slice("unix:".length);
    if (!isAbsolute(path)) throw new SidecarClientError("invalid_address", `the sidecar socket must be an absolute path: unix:/path/to/sidecar.sock`);
    return { kind: "unix", path };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new SidecarClientError("invalid_address", "the sidecar address must be unix:/path/to/sidecar.sock or http://127.0.0.1:PORT");
  }
  if (url.protocol !== "http:" || !LOOPBACK.has(url.hostname) || url.username !== "" || url.password !== "" || (url.pathname !== "/" && url.pathname !== "") || url.search !== "" || url.hash !== "") {
    throw new SidecarClientError("invalid_address", "the sidecar address must be unix:/path/to/sidecar.sock or a loopback http origin such as http://127.0.0.1:8787");
  }
  return { kind: "tcp", origin: url.origin };
}

// Kept in their own module so the command line can name the defaults without loading undici.
export { defaultSidecarAddress, sidecarHome } from "./sidecar-home.js";

/** Reads the caller token file (`$SIDECAR_HOME/caller-token` by default). */
export async function readCallerToken(file: string): Promise<string> {
  try {
    return (await readFile(file, "utf8")).trim();
  } catch (error) {
    throw new SidecarClientError("caller_token_unreadable", `cannot read the caller token file ${file}: ${(error as NodeJS.ErrnoException).code ?? "error"}`);
  }
}

export interface SidecarResponse {
  statusCode: number;
  /** The parsed JSON body, or undefined when it was not JSON. */
  json: unknown;
  text: string;
}

export interface SidecarClient {
  /** The address as given, for messages. */
  readonly address: string;
  get(path: string): Promise<SidecarResponse>;
  post(path: string, body: unknown): Promise<SidecarResponse>;
  close(): Promise<void>;
}

/**
 * A client for one sidecar, over its Unix socket or loopback TCP, sending the
 * caller token as `Authorization: Bearer` on every call. The CLI's `run` and the
 * MCP server share it. Throws `SidecarClientError` (`invalid_address`) for an
 * address that is neither; a call that cannot connect rejects with `unreachable`.
 */
export function createSidecarClient(options: { address: string; callerToken: string }): SidecarClient {
  const address = parseSidecarAddress(options.address);
  const client =
    address.kind === "unix" ? new Client("http://localhost", { socketPath: address.path }) : new Client(address.origin);
  const call = async (method: "GET" | "POST", path: string, body?: unknown): Promise<SidecarResponse> => {
    const headers: Record<string, string> = { authorization: `Bearer ${options.callerToken}` };
    if (body !== undefined) headers["content-type"] = "application/json";
    let response;
    try {
      response = await client.request({ method, path, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    } catch (error) {
      throw new SidecarClientError("unreachable", `cannot reach the sidecar at ${options.address}: ${(error as NodeJS.ErrnoException).code ?? "error"}`);
    }
    const text = await response.body.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { statusCode: response.statusCode, json, text };
  };
  return {
    address: options.address,
    get: (path) => call("GET", path),
    post: (path, body) => call("POST", path, body),
    close: () => client.close(),
  };
}

import { readFile } from "node:fs/promises";
import { request } from "undici";
import { UsageError } from "./io.js";

/** Where the sidecar is and how to prove we are its bot. */
export interface SidecarTarget {
  /** A loopback http origin, such as http://127.0.0.1:8787. */
  sidecar: string;
  callerTokenFile: string;
}

/** The sidecar could not be reached, or did not answer JSON. */
export class SidecarUnreachableError extends Error {
  readonly code = "sidecar_unreachable" as const;
  constructor(message: string) {
    super(message);
    this.name = "SidecarUnreachableError";
  }
}

/** A JSON answer of the sidecar with its HTTP status. */
export interface SidecarAnswer {
  statusCode: number;
  body: unknown;
}

/** Checks the sidecar address: only loopback http, so a grant never leaves the machine. */
export function sidecarOrigin(sidecar: string): URL {
  let url: URL;
  try {
    url = new URL(sidecar);
  } catch {
    throw new UsageError("--sidecar must be a loopback http address, such as http://127.0.0.1:8787");
  }
  if (url.protocol !== "http:" || !["127.0.0.1", "[::1]", "localhost"].includes(url.hostname)) {
    throw new UsageError("--sidecar must be a loopback http address, such as http://127.0.0.1:8787");
  }
  return url;
}

/**
 * A client for one sidecar: the caller token is read once, from its file, and
 * sent only to the loopback sidecar.
 */
export async function sidecarClient(target: SidecarTarget): Promise<(path: string, body: unknown) => Promise<SidecarAnswer>> {
  const origin = sidecarOrigin(target.sidecar);
  let callerToken: string;
  try {
    callerToken = (await readFile(target.callerTokenFile, "utf8")).trim();
  } catch (error) {
    throw new UsageError(`cannot read the caller token file ${target.callerTokenFile}: ${(error as NodeJS.ErrnoException).code ?? "error"}`);
  }
  return async (path, body) => {
    const url = new URL(path, origin);
    let response;
    try {
      response = await request(url, {
        method: "POST",
        headers: { authorization: `Bearer ${callerToken}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    } catch (error) {
      throw new SidecarUnreachableError(`cannot reach the sidecar at ${url.origin}: ${(error as NodeJS.ErrnoException).code ?? "error"}`);
    }
    const text = await response.body.text();
    try {
      return { statusCode: response.statusCode, body: JSON.parse(text) as unknown };
    } catch {
      throw new SidecarUnreachableError(`the sidecar at ${url.origin} answered ${response.statusCode} without JSON`);
    }
  };
}

/**
 * A grant given as `@file`: read from the file, never from the command line,
 * where other local users can see it in the process list.
 */
export async function readGrantFile(reference: string): Promise<string> {
  if (!reference.startsWith("@") || reference.length < 2) throw new UsageError("--grant takes @file: a file holding the grant (eg1...), never the grant itself");
  const file = reference.slice(1);
  let text: string;
  try {
    text = (await readFile(file, "utf8")).trim();
  } catch (error) {
    throw new UsageError(`cannot read the grant file ${file}: ${(error as NodeJS.ErrnoException).code ?? "error"}`);
  }
  if (!text.startsWith("eg1.")) throw new UsageError(`the grant file ${file} does not hold a grant (eg1...)`);
  return text;
}

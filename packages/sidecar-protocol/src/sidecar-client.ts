import { Client, type Dispatcher } from "undici";
import type { OpsBody, PolicyBody, RevokeBody, RunBody, SearchBody, WhoamiBody } from "./body-schemas.js";
import type { PolicyAnswer } from "./policy-schema.js";
import type { RunAnswer } from "./envelope-schemas.js";
import { httpErrorBodySchema, type HttpErrorBody } from "./http-error-schema.js";
import type { IdentityAnswer } from "./identity-schema.js";
import type { OpsAnswer } from "./palette-schema.js";
import { readAnswer } from "./read-answer.js";
import type { EventsAnswer, EventsBody, SubscribeAnswer, SubscribeBody } from "./events-schema.js";
import type { RevokeAnswer } from "./revoke-schema.js";
import { OPENAPI_PATH, SIDECAR_ROUTES } from "./routes.js";
import type { SearchAnswer } from "./search-schema.js";
import { SidecarClientError } from "./sidecar-client-error.js";
import { checkSidecarTarget, type SidecarTarget } from "./sidecar-target.js";
import type { WhoamiAnswer } from "./whoami-schema.js";

export interface SidecarClientOptions {
  /** Sent as `Authorization: Bearer` on every call, to the socket or loopback origin of the target only; never in an error message. */
  callerToken: string;
  /** Deadline of one call, connection to last byte, in milliseconds. Default 60 000 (a write may run a preview read and the write, each with retries). */
  timeoutMs?: number;
  /** Largest answer accepted, in bytes. Default 4 MiB. */
  maxAnswerBytes?: number;
}

/**
 * One sidecar's routes, typed. Each method resolves with the route's 200 answer
 * body exactly as sent: envelopes with `status: "error"` are answers, not
 * rejections. A call that got no route answer rejects with `SidecarClientError`.
 */
export interface SidecarClient {
  /** `GET /v1/identity`: the bot's box key (members seal grants to it) and the registry it runs. */
  identity(): Promise<IdentityAnswer>;
  /** `POST /v1/ops`: the palette a grant enables. */
  ops(body: OpsBody): Promise<OpsAnswer>;
  /** `POST /v1/run`: runs one op; a write without `confirmation` answers `confirmation_required`. */
  run(body: RunBody): Promise<RunAnswer>;
  /** `POST /v1/search`: ranked ops with readiness under the grants given. */
  search(body: SearchBody): Promise<SearchAnswer>;
  /** `POST /v1/revoke`: records a member's signed revocation. */
  revoke(body: RevokeBody): Promise<RevokeAnswer>;
  /** `POST /v1/whoami`: the account the grant's credential acts as. */
  whoami(body: WhoamiBody): Promise<WhoamiAnswer>;
  /** `POST /v1/policy`: per op of the grant, whether it runs, asks or is blocked, and the approvals' budgets left. */
  policy(body: PolicyBody): Promise<PolicyAnswer>;
  /** `POST /v1/subscriptions`: adds a member's subscription (`es1.`), with the grant a poll subscription runs under. */
  subscribe(body: SubscribeBody): Promise<SubscribeAnswer>;
  /** `POST /v1/events`: the bot's events after a cursor, waiting up to `wait_ms` (set `timeoutMs` above it). */
  events(body: EventsBody): Promise<EventsAnswer>;
  /** `GET /v1/openapi.json`: the sidecar's own description of these routes. */
  openapi(): Promise<Record<string, unknown>>;
  /** Closes the connections; calls after it reject. */
  close(): Promise<void>;
}

export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_ANSWER_BYTES = 4 * 1024 * 1024;

const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "UND_ERR_CONNECT_TIMEOUT"]);

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`${name} must be a whole number above 0`);
  return value;
}

/**
 * A client of one sidecar, over its Unix socket (`{ socketPath }`) or a loopback
 * origin (`{ url: "http://127.0.0.1:8787" }`). Throws `SidecarClientError`
 * (`invalid_target`) for any other target: the caller token goes nowhere else.
 */
export function createSidecarClient(target: SidecarTarget, options: SidecarClientOptions): SidecarClient {
  const checked = checkSidecarTarget(target);
  if (typeof options.callerToken !== "string" || options.callerToken.trim() === "") throw new TypeError("callerToken must be the sidecar's caller token");
  const timeoutMs = positiveInteger("timeoutMs", options.timeoutMs, DEFAULT_TIMEOUT_MS);
  const maxAnswerBytes = positiveInteger("maxAnswerBytes", options.maxAnswerBytes, DEFAULT_MAX_ANSWER_BYTES);
  const where = "socketPath" in checked ? checked.socketPath : checked.url;
  // Over the socket the sidecar sees no port: `Host: localhost` is what its loopback guard expects.
  const client = "socketPath" in checked ? new Client("http://localhost", { socketPath: checked.socketPath }) : new Client(checked.url);
  const authorization = `Bearer ${options.callerToken.trim()}`;

  async function call(method: "GET" | "POST", path: string, body?: object): Promise<unknown> {
    const name = `${method} ${path}`;
    const signal = AbortSignal.timeout(timeoutMs);
    const headers: Record<string, string> = { authorization, accept: "application/json" };
    if (body !== undefined) headers["content-type"] = "application/json";
    let response: Dispatcher.ResponseData;
    let text: string;
    try {
      response = await client.request({ method, path, headers, signal, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      text = await readAnswer(response.body, response.headers, maxAnswerBytes);
    } catch (error) {
      throw transportError(error, name, where, timeoutMs, signal);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new SidecarClientError("bad_answer", `the sidecar answered ${name} with ${response.statusCode} and a body that is not JSON`, {
        status: response.statusCode,
      });
    }
    if (response.statusCode === 200 && typeof json === "object" && json !== null && !Array.isArray(json)) return json;
    throw refusal(name, response.statusCode, json);
  }

  const post = <T>(route: { path: string }, body: object) => call("POST", route.path, body) as Promise<T>;
  return {
    identity: () => call("GET", SIDECAR_ROUTES.identity.path) as Promise<IdentityAnswer>,
    ops: (body) => post<OpsAnswer>(SIDECAR_ROUTES.ops, body),
    run: (body) => post<RunAnswer>(SIDECAR_ROUTES.run, body),
    search: (body) => post<SearchAnswer>(SIDECAR_ROUTES.search, body),
    revoke: (body) => post<RevokeAnswer>(SIDECAR_ROUTES.revoke, body),
    whoami: (body) => post<WhoamiAnswer>(SIDECAR_ROUTES.whoami, body),
    policy: (body) => post<PolicyAnswer>(SIDECAR_ROUTES.policy, body),
    subscribe: (body) => post<SubscribeAnswer>(SIDECAR_ROUTES.subscribe, body),
    events: (body) => post<EventsAnswer>(SIDECAR_ROUTES.events, body),
    openapi: () => call("GET", OPENAPI_PATH) as Promise<Record<string, unknown>>,
    close: () => client.close(),
  };
}

function transportError(error: unknown, name: string, where: string, timeoutMs: number, signal: AbortSignal): SidecarClientError {
  if (SidecarClientError.isInstance(error)) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (signal.aborted || (code !== undefined && TIMEOUT_CODES.has(code))) {
    return new SidecarClientError("timeout", `the sidecar at ${where} gave no whole answer to ${name} within ${timeoutMs} ms`, { cause: error });
  }
  return new SidecarClientError("unreachable", `cannot reach the sidecar at ${where} (${code ?? "connection failed"}); is it running?`, { cause: error });
}

function refusal(name: string, status: number, json: unknown): SidecarClientError {
  const parsed = httpErrorBodySchema.safeParse(json);
  if (!parsed.success)
    return new SidecarClientError("bad_answer", `the sidecar answered ${name} with ${status} and a body this client does not know`, { status });
  const { code, issues } = (parsed.data as HttpErrorBody).error;
  const paths = issues === undefined || issues.length === 0 ? "" : `: ${issues.map((issue) => issue.path || "(the body)").join(", ")}`;
  return new SidecarClientError(code, `the sidecar refused ${name} (${status} ${code})${paths}${HINTS[code] ?? ""}`, {
    status,
    ...(issues === undefined ? {} : { issues }),
  });
}

const HINTS: Partial<Record<string, string>> = {
  unauthorized: "; send the token in the sidecar's caller-token file",
  forbidden_host: "; call it on its Unix socket or its loopback address",
  forbidden_origin: "; a web page cannot call the sidecar",
  body_too_large: "; bodies are at most 256 KiB",
};

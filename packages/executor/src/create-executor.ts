import type { ArgValue } from "@eleven-integrations/schema";
import type { Registry } from "@eleven-integrations/loader";
import type { Dispatcher } from "undici";
import { buildHeaders, credentialPlace } from "./build-headers.js";
import { ByteBudget } from "./byte-budget.js";
import { credentialToken } from "./credential.js";
import { DeadlineTimer } from "./deadline.js";
import { errorEnvelope, type Envelope, type ErrorEnvelope } from "./envelope.js";
import { failure, type FailureContext } from "./failure.js";
import { fitResult } from "./fit-result.js";
import { createHardenedDispatcher } from "./hardened-dispatcher.js";
import { resolveLimits, type ExecutorLimits, type ResolvedLimits } from "./limits.js";
import { PageSigner } from "./page-token.js";
import { prepareRequest } from "./prepare-request.js";
import { runWithRetries } from "./run-with-retries.js";
import { sendOnce } from "./send-once.js";
import { withoutCredential } from "./without-credential.js";

/** One run of one op, as the sidecar asks for it. */
export interface RunRequest {
  /** The manifest id, such as `github`. */
  readonly integration: string;
  /** The op id, such as `repos.list`. */
  readonly op: string;
  /** Values for the op's declared args (strings; a list arg's array of strings; a file arg's file); anything else is `invalid_args`. */
  readonly args?: Readonly<Record<string, ArgValue>>;
  /** The member's token; it is sent only in `authorization`, only to the manifest's origin. */
  readonly credential: { readonly token: string; readonly kind?: "pat" | "oauth" };
  /**
   * A `next_page` from an earlier run of the same op with the same args: runs the next page.
   * A page made for another op, other args, another manifest version or another executor's
   * key, or changed in any way, is `invalid_args` and nothing is sent.
   */
  readonly page?: string | undefined;
  /**
   * The connection's tenant settings (`{ subdomain: "acme" }`), from the grant the member
   * signed: they fill `auth.base`'s placeholder. Never taken from `args`; a missing or
   * invalid setting is `invalid_args` naming it, and nothing is sent. Ignored for a base
   * without a tenant.
   */
  readonly connection?: Readonly<Record<string, string>> | undefined;
}

export interface ExecutorOptions {
  readonly registry: Registry;
  /**
   * Where requests are sent through. Leave it out in production: the default,
   * {@link createHardenedDispatcher}, speaks HTTP/1.1 and refuses non-public addresses.
   * Tests pass a dispatcher whose connector reaches loopback servers.
   */
  readonly dispatcher?: Dispatcher | undefined;
  readonly limits?: ExecutorLimits | undefined;
  /**
   * The key (at least 32 bytes) that binds `next_page` tokens to their op and args. Leave it
   * out for a random key per executor (pages then do not survive a restart); executors that
   * must accept each other's pages (several sidecars of one bot) share one.
   */
  readonly pageKey?: Uint8Array | undefined;
}

export interface Executor {
  /** Runs an op; resolves to an envelope for every expected failure, and never sends a request that fails `validate`. */
  run(request: RunRequest): Promise<Envelope>;
  /** The `unknown_integration`, `unknown_op` or `invalid_args` envelope `run` would give, or null; sends nothing. */
  validate(request: Omit<RunRequest, "credential">): ErrorEnvelope | null;
  /** The limits in force, defaults filled in. */
  readonly limits: Required<ExecutorLimits>;
  /** Closes the default dispatcher, if this executor made one; an injected dispatcher is the caller's to close. */
  close(): Promise<void>;
}

/** An executor for the ops of `registry`, each pinned to its manifest's origin. */
export function createExecutor(options: ExecutorOptions): Executor {
  const { registry } = options;
  const limits: ResolvedLimits = resolveLimits(options.limits);
  const budget = new ByteBudget(limits.maxBufferedBytes, limits.maxResponseBytes);
  const contexts = new Map<string, FailureContext>();
  const pages = new PageSigner(options.pageKey);
  const deadlines = new DeadlineTimer(limits.timeoutMs);
  let ownDispatcher: Dispatcher | undefined;
  const dispatcher = (): Dispatcher => options.dispatcher ?? (ownDispatcher ??= createHardenedDispatcher());

  const contextOf = (integration: string): FailureContext => {
    let context = contexts.get(integration);
    if (context === undefined) {
      const manifest = registry.get(integration);
      context = {
        service: manifest?.name ?? integration,
        // The base's host as written: a tenant base names its placeholder (`{subdomain}.zendesk.com`), never a member's value.
        host: manifest === undefined ? integration : (manifest.auth.base.slice("https://".length).split("/")[0] as string),
      };
      contexts.set(integration, context);
    }
    return context;
  };

  const validate = (request: Omit<RunRequest, "credential">): ErrorEnvelope | null => {
    // A stored file ({ sha256 }) is read by the sidecar only when it sends: validate checks the rest.
    const prepared = prepareRequest(registry, request, contextOf, pages, "validate");
    return prepared.ok ? null : prepared.envelope;
  };

  const run = async (request: RunRequest): Promise<Envelope> => {
    const prepared = prepareRequest(registry, request, contextOf, pages);
    if (!prepared.ok) return prepared.envelope;
    const { name, operation, context } = prepared.request;
    const credential = credentialToken(request.credential);
    if (!credential.ok) return errorEnvelope(name, failure("unauthorized", credential.message, context));

    const headers = buildHeaders(operation, credential.token, prepared.request.body, credential.kind, prepared.request.opHeaders);
    const place = credentialPlace(operation, credential.kind);
    const credentialQuery = place?.in === "query" ? { name: place.name, token: credential.token } : undefined;
    const deadline = deadlines.start();
    try {
      const attempt = { dispatcher: dispatcher(), headers, deadline, budget, maxResponseBytes: limits.maxResponseBytes, pages, credentialQuery };
      let envelope = await runWithRetries(operation, limits.retries, deadline, () => sendOnce(prepared.request, attempt));
      // A token that travels in the URL may come back in the answer or in the provider's error words: never passed on.
      if (credentialQuery !== undefined) envelope = withoutCredential(envelope, credentialQuery.token);
      return fitResult(envelope, limits.maxResultBytes, context);
    } finally {
      deadline.clear();
    }
  };

  return Object.freeze({
    run,
    validate,
    limits,
    close: async () => {
      const own = ownDispatcher;
      ownDispatcher = undefined;
      if (own !== undefined) await own.close();
    },
  });
}

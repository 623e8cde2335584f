import type { Registry } from "@eleven-integrations/loader";
import { httpErrorCodeSchema, runErrorCodeSchema } from "@eleven-integrations/sidecar-protocol";

/** The one label value everything off the registry and the closed lists counts under. */
export const UNKNOWN_LABEL = "unknown";
/** The label value of a field the run did not have (no integration, no error code). */
export const NONE_LABEL = "none";

const RUN_STATUSES: ReadonlySet<string> = new Set(["ok", "error", "confirmation_required"]);
const ERROR_CODES: ReadonlySet<string> = new Set<string>([...runErrorCodeSchema.options, ...httpErrorCodeSchema.options]);
const METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
/** A route pattern as fastify registered it (`/v1/run`, `/v1/ops/:integration`): nothing a caller typed. */
const ROUTE_PATTERN = /^\/[A-Za-z0-9/_:.-]{0,100}$/;

export interface RunLabelFields {
  integration: string | null;
  op: string | null;
  status: string;
  code: string | null;
}

/**
 * Label values a bot cannot invent (third review, finding 8: 3,000 refused calls with made-up
 * op ids made 48,003 series): an integration or op is a label only when the running registry
 * has it, a status or an error code only from the protocol's closed lists, a method from the
 * HTTP methods the sidecar serves; anything else counts under `unknown`, a missing one under `none`.
 * Without a registry (a metrics object used alone) no integration or op is known.
 */
export class MetricLabels {
  readonly #registry: () => Registry | undefined;

  constructor(registry: () => Registry | undefined = () => undefined) {
    this.#registry = registry;
  }

  run(fields: RunLabelFields): { integration: string; op: string; status: string; code: string } {
    const registry = this.#registry();
    const known = fields.integration !== null && registry?.get(fields.integration) !== undefined;
    const integration = fields.integration === null ? NONE_LABEL : known ? fields.integration : UNKNOWN_LABEL;
    let op = NONE_LABEL;
    if (fields.integration !== null && fields.op !== null) {
      op = known && registry?.operation(fields.integration, fields.op) !== undefined ? fields.op : UNKNOWN_LABEL;
    }
    return {
      integration,
      op,
      status: RUN_STATUSES.has(fields.status) ? fields.status : UNKNOWN_LABEL,
      code: fields.code === null ? NONE_LABEL : ERROR_CODES.has(fields.code) ? fields.code : UNKNOWN_LABEL,
    };
  }

  request(route: string | undefined, method: string, status: number): { route: string; method: string; status: string } {
    return {
      route: route === undefined ? "unmatched" : ROUTE_PATTERN.test(route) ? route : UNKNOWN_LABEL,
      method: METHODS.has(method) ? method : UNKNOWN_LABEL,
      status: Number.isInteger(status) && status >= 100 && status <= 599 ? String(status) : UNKNOWN_LABEL,
    };
  }
}

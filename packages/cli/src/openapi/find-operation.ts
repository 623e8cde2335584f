import type { PathSegment } from "@eleven-integrations/schema";
import type { OpenApiDocument } from "./load-openapi.js";
import { isObject, type Schema } from "./schema-shape.js";
import { SpecError } from "./spec-error.js";

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;

/** One operation of the spec, with what it inherits from its path item. */
export interface SpecOperation {
  readonly method: string;
  readonly path: string;
  readonly operationId: string | undefined;
  readonly operation: Schema;
  /** Path-item and operation parameters merged (the operation's win by name and place). */
  readonly parameters: readonly Schema[];
  /** The path prefixes of the servers that apply to this operation (`/api` for `https://slack.com/api`). */
  readonly serverPaths: readonly string[][];
  readonly serverOrigins: readonly string[];
}

export function* specOperations(document: OpenApiDocument): Generator<SpecOperation> {
  for (const [path, pathItem] of Object.entries(document.paths)) {
    if (!isObject(pathItem)) continue;
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (!isObject(operation)) continue;
      const servers = serverList(operation.servers) ?? serverList(pathItem.servers) ?? (document.servers.length > 0 ? document.servers : [{ url: "/" }]);
      const urls = servers.map(serverUrl);
      yield {
        method: method.toUpperCase(),
        path,
        operationId: typeof operation.operationId === "string" ? operation.operationId : undefined,
        operation,
        parameters: mergeParameters(pathItem.parameters, operation.parameters),
        serverPaths: urls.map((url) =>
          url.pathname
            .split("/")
            .filter((segment) => segment !== "")
            .map(decodeSafe),
        ),
        serverOrigins: urls.map((url) => url.origin),
      };
    }
  }
}

function serverList(value: unknown): { url: string; variables?: Record<string, { default?: string }> }[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  return value.filter(isObject).map((server) => ({
    url: String(server.url ?? "/"),
    ...(isObject(server.variables) ? { variables: server.variables as Record<string, { default?: string }> } : {}),
  }));
}

function serverUrl(server: { url: string; variables?: Record<string, { default?: string }> }): URL {
  const url = server.url.replace(/\{([^}]+)\}/g, (_, name: string) => String(server.variables?.[name]?.default ?? ""));
  try {
    return new URL(url, "https://relative.invalid/");
  } catch {
    return new URL("https://relative.invalid/");
  }
}

function decodeSafe(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function mergeParameters(pathLevel: unknown, operationLevel: unknown): Schema[] {
  const merged = new Map<string, Schema>();
  for (const list of [pathLevel, operationLevel]) {
    if (!Array.isArray(list)) continue;
    for (const parameter of list) {
      if (isObject(parameter) && typeof parameter.name === "string") merged.set(`${String(parameter.in)}:${parameter.name}`, parameter);
    }
  }
  return [...merged.values()];
}

/** How a manifest path segment lines up with a spec path segment. */
export type SegmentMatch = { spec: string; manifest: PathSegment; parameter?: string };

export interface MatchedOperation {
  readonly spec: SpecOperation;
  readonly segments: readonly SegmentMatch[];
}

/**
 * Finds the spec operation a manifest request reaches: same method, and a server
 * prefix plus spec path that lines up with the manifest's full path (base prefix
 * included) segment by segment. A spec `{param}` segment takes a literal or a
 * placeholder; a spec literal takes only the same literal. The most literal match wins,
 * so `/v1/customers/search` beats `/v1/customers/{customer}`.
 */
export function matchOperation(document: OpenApiDocument, method: string, fullPath: readonly PathSegment[]): MatchedOperation | undefined {
  let best: { match: MatchedOperation; score: number } | undefined;
  for (const spec of specOperations(document)) {
    if (spec.method !== method) continue;
    const specSegments = spec.path.split("/").slice(1);
    for (const prefix of spec.serverPaths) {
      const candidate = lineUp([...prefix, ...specSegments], fullPath);
      if (candidate === undefined) continue;
      if (best === undefined || candidate.score > best.score) best = { match: { spec, segments: candidate.segments }, score: candidate.score };
    }
  }
  return best?.match;
}

function lineUp(specSegments: readonly string[], manifest: readonly PathSegment[]): { segments: SegmentMatch[]; score: number } | undefined {
  if (specSegments.length !== manifest.length) return undefined;
  const segments: SegmentMatch[] = [];
  let score = 0;
  for (let index = 0; index < manifest.length; index += 1) {
    const spec = specSegments[index] as string;
    const segment = manifest[index] as PathSegment;
    const whole = /^\{([^{}]+)\}$/.exec(spec);
    if (segment.kind === "arg" && segment.suffix !== undefined) {
      // `{spreadsheet_id}:batchUpdate` lines up with the spec's `{spreadsheetId}:batchUpdate`, and nothing else.
      const suffixed = /^\{([^{}]+)\}(.+)$/.exec(spec);
      if (suffixed === null || suffixed[2] !== segment.suffix) return undefined;
      segments.push({ spec, manifest: segment, parameter: suffixed[1] as string });
      continue;
    }
    if (whole !== null) {
      segments.push({ spec, manifest: segment, parameter: whole[1] as string });
      continue;
    }
    if (segment.kind !== "literal") return undefined;
    if (spec.includes("{")) {
      const pattern = new RegExp(
        `^${spec
          .split(/\{[^{}]+\}/)
          .map(escapeRegExp)
          .join("[^/]+")}$`,
      );
      if (!pattern.test(segment.text)) return undefined;
    } else if (decodeSafe(segment.text) !== spec) {
      return undefined;
    }
    segments.push({ spec, manifest: segment });
    score += 1;
  }
  return { segments, score };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Looks an operation up by `operationId` or `METHOD /path` (as the spec writes the path). */
export function findOperation(document: OpenApiDocument, reference: string): SpecOperation {
  const methodPath = /^([A-Za-z]+)\s+(\/\S*)$/.exec(reference.trim());
  for (const spec of specOperations(document)) {
    if (methodPath !== null) {
      if (spec.method === (methodPath[1] as string).toUpperCase() && spec.path === methodPath[2]) return spec;
    } else if (spec.operationId === reference) {
      return spec;
    }
  }
  throw new SpecError("unknown_operation", `${document.file} has no operation ${methodPath === null ? `with operationId "${reference}"` : `"${reference}"`}`);
}

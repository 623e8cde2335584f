import {
  parsePathTemplate,
  splitTemplate,
  type Access,
  type CredentialPlace,
  type JsonValue,
  type Manifest,
  type Method,
  type Operation,
  type PathSegment,
  type QueryPair,
  type TemplatePart,
} from "@eleven-integrations/schema";
import { compileArgs, type CompiledArg } from "./compile-args.js";
import { compileBase, type CompiledBase } from "./compile-base.js";
import { compileBody, type BodyArgs } from "./compile-body.js";
import { compileHeaders, type CompiledHeader } from "./compile-headers.js";
import { compilePaging, type CompiledPaging } from "./compile-paging.js";
import { compilePick, type PickAccessor } from "./compile-pick.js";
import { compilePreview, type CompiledPreview } from "./compile-preview.js";
import type { CompiledProviderErrors } from "./compile-provider-errors.js";

/** A multipart body's parts, compiled at load. */
export interface CompiledMultipart {
  readonly kind: "form-data" | "related";
  readonly parts: readonly {
    readonly name: string | undefined;
    readonly render: ((args: BodyArgs) => JsonValue) | undefined;
    readonly file: string | undefined;
  }[];
}

/** An op ready to run: every template parsed once, at load. */
export interface CompiledOperation {
  readonly integration: string;
  readonly id: string;
  readonly label: string;
  readonly access: Access;
  readonly method: Method;
  readonly encoding: NonNullable<Operation["encoding"]>;
  /**
   * `auth.base`'s origin, such as `https://api.github.com`: the only origin requests go to.
   * For a base that names a tenant it is the template's (`https://{subdomain}.zendesk.com`),
   * never sent: the executor resolves `base` with the run's connection instead.
   */
  readonly origin: string;
  /** `auth.base`'s path prefix without a trailing slash (`/rest/v2`), or `""` (the template's for a tenant base). */
  readonly basePath: string;
  /** `auth.base` compiled, shared by the manifest's ops: `fixed` for a plain base, `resolve(connection)` for a tenant's. */
  readonly base: CompiledBase;
  /** Path segments after the base path: literal text (sent as written) or one arg each. */
  readonly pathSegments: readonly PathSegment[];
  /** Query pairs in template order: literal, or one arg whose absence drops the pair. */
  readonly query: readonly QueryPair[];
  readonly args: ReadonlyMap<string, CompiledArg>;
  /** `Bearer`, `token`... or `none` for the bare token. */
  readonly authorization: string;
  /** The scheme for a token from the OAuth flow: `auth.oauth.authorization`, else `authorization`. */
  readonly oauthAuthorization: string;
  /** The manifest's extra headers, as written. */
  readonly headers: readonly (readonly [string, string])[];
  /** The op's own headers, templates of its args (`ops[].headers`). */
  readonly opHeaders: readonly CompiledHeader[];
  /** Where a personal token travels instead of `Authorization` (`auth.credential`), or undefined. */
  readonly credential: CredentialPlace | undefined;
  /** `file` for a read whose answer is a file's bytes (`result`), else undefined. */
  readonly result: "file" | undefined;
  /** The `auth.hosts` name the op is sent to (`host`), or undefined for `base`. */
  readonly host: string | undefined;
  /** Renders `body_json` with the args (an optional arg not given drops its key), or undefined without a body. */
  readonly renderBody: ((args: BodyArgs) => JsonValue) | undefined;
  /** An `encoding: "bytes"` op's fixed Content-Type (`content_type`), else undefined (the file's is sent). */
  readonly contentType: string | undefined;
  /** An `encoding: "multipart"` op's parts: each a JSON template's builder or the file arg it carries. */
  readonly multipart: CompiledMultipart | undefined;
  /** The `confirm` template split into parts, for writes. */
  readonly confirm: string | undefined;
  readonly confirmParts: readonly TemplatePart[] | undefined;
  /** Projects a parsed response body; throws PickError past the depth bound. */
  readonly pick: PickAccessor | undefined;
  /** The integration's error dialect (shared by its ops), or undefined: then only the HTTP status says an answer failed. */
  readonly errors: CompiledProviderErrors | undefined;
  /** How this op pages, or undefined for an op that returns one answer. */
  readonly paging: CompiledPaging | undefined;
  /** A write's preview (the read to run and the line to fill), or undefined. */
  readonly preview: CompiledPreview | undefined;
  /** The op as written in the manifest. */
  readonly operation: Operation;
}

export function compileOperation(
  manifest: Manifest,
  operation: Operation,
  errors?: CompiledProviderErrors,
  base: CompiledBase = compileBase(manifest.auth),
): CompiledOperation {
  const template = parsePathTemplate(operation.path);
  if (!template.ok) throw new Error(`unreachable: ${manifest.id} ${operation.id} path passed the schema`);
  const hostUrl = operation.host === undefined ? undefined : manifest.auth.hosts?.[operation.host];
  if (operation.host !== undefined && hostUrl === undefined) throw new Error(`unreachable: ${manifest.id} ${operation.id} host passed the schema`);
  // A further host is fixed (no tenant): it takes the place of base for this op, pinned the same way.
  if (hostUrl !== undefined) base = compileBase({ ...manifest.auth, base: hostUrl, tenant: undefined });
  const { origin, basePath } = base.fixed ?? templateParts(manifest.auth.base);
  const args = compileArgs(operation.args);
  const types = new Map([...args.values()].map((arg) => [arg.name, arg.type]));
  return Object.freeze({
    integration: manifest.id,
    id: operation.id,
    label: operation.label,
    access: operation.access,
    method: operation.method,
    encoding: operation.encoding ?? "json",
    origin,
    basePath,
    base,
    pathSegments: Object.freeze(template.template.segments.map((segment) => Object.freeze(segment))),
    query: Object.freeze(template.template.query.map((pair) => Object.freeze(pair))),
    args,
    authorization: manifest.auth.authorization,
    oauthAuthorization: manifest.auth.oauth?.authorization ?? manifest.auth.authorization,
    headers: Object.freeze(Object.entries(manifest.auth.headers ?? {}).map((entry) => Object.freeze(entry))),
    opHeaders: compileHeaders(operation.headers, types),
    credential: manifest.auth.credential,
    host: operation.host,
    result: operation.result,
    renderBody: operation.body_json === undefined ? undefined : compileBody(operation.body_json, types),
    contentType: operation.content_type,
    multipart:
      operation.multipart === undefined
        ? undefined
        : Object.freeze({
            kind: operation.multipart.kind,
            parts: Object.freeze(
              operation.multipart.parts.map((part) =>
                Object.freeze({ name: part.name, render: part.json === undefined ? undefined : compileBody(part.json, types), file: part.file }),
              ),
            ),
          }),
    confirm: operation.confirm,
    confirmParts: operation.confirm === undefined ? undefined : Object.freeze(splitTemplate(operation.confirm)),
    pick: operation.pick === undefined ? undefined : compilePick(operation.pick),
    errors,
    paging: operation.page === undefined ? undefined : compilePaging(operation.page),
    preview: operation.preview === undefined ? undefined : compilePreview(operation.preview),
    operation,
  });
}

/** The origin and path prefix of a tenant base as written, for display only. */
function templateParts(base: string): { origin: string; basePath: string } {
  const slash = base.indexOf("/", "https://".length);
  return slash === -1 ? { origin: base, basePath: "" } : { origin: base.slice(0, slash), basePath: base.slice(slash) };
}

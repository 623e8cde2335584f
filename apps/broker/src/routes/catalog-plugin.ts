import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fastifyPlugin from "fastify-plugin";
import { BROKER_CONTEXT } from "../broker-context.js";
import { BrokerError } from "../http/broker-error.js";
import { servedCatalog, servedEntry } from "../catalog/catalog.js";
import { catalogBodies, utf8Buffer } from "../catalog/catalog-body.js";
import { CATALOG_PAGE_HEADERS, INTEGRATION_PAGE_HEADERS, renderCatalogPage, renderIntegrationPage } from "../catalog/catalog-page.js";
import { createCatalogSearch, parseSearchQuery } from "../catalog/catalog-search.js";
import { queryOf, single } from "../http/query.js";
import { createRepresentation, ifNoneMatchHits, type Representation } from "../catalog/representation.js";

/** Clients revalidate with the ETag after five minutes; a 304 costs them nothing. */
export const REGISTRY_CACHE_CONTROL = "public, max-age=300";
const PAGE_CACHE_CONTROL = "public, max-age=60";
const SEARCH_CACHE_CONTROL = "public, max-age=60";
/** Sidecars poll with If-None-Match; a cache may keep the release but must revalidate it each time. */
export const RELEASE_CACHE_CONTROL = "public, no-cache";
const MAX_FILTER_LENGTH = 200;

/**
 * `GET /registry`, `GET /registry/:id`, `GET /healthz`, the catalog page `GET /` and a page per integration `GET /integrations/:id`.
 * Every registry body is made here, once, when the app is built (each entry from its manifest's canonical JSON, which the
 * registry made for its hash; the whole catalog from the entries' bytes), and the search index is built, so a ready broker answers its first search at once.
 */
async function catalogRoutes(app: FastifyInstance): Promise<void> {
  const { registry, oauthApps } = app.broker;
  const { catalog, tag } = servedCatalog(registry, oauthApps);
  const json = (value: unknown) => utf8Buffer(JSON.stringify(value));
  const contentType = "application/json; charset=utf-8";
  // The catalog is public and holds nothing secret, so every web client may read it.
  const headers = { "access-control-allow-origin": "*", "x-content-type-options": "nosniff" };
  const bodies = catalogBodies(
    catalog,
    catalog.integrations.map((entry) => registry.manifestJson(entry.id) as Buffer),
  );
  const byId = new Map<string, Representation>();
  registry.catalog().integrations.forEach((entry, index) => {
    const { tag: entryTag } = servedEntry(entry, oauthApps);
    const body = bodies.entries[index] as Buffer;
    byId.set(entry.id, createRepresentation({ body, contentType, tag: entryTag, cacheControl: REGISTRY_CACHE_CONTROL, headers }));
  });
  const whole = createRepresentation({ body: bodies.catalog, contentType, tag, cacheControl: REGISTRY_CACHE_CONTROL, headers });

  app.get("/registry", (request, reply) => sendRepresentation(request, reply, whole));

  // Declared before `/registry/:id`'s lookup can see it: a static route wins in fastify, so an integration with the id "search" is not served by id.
  const search = createCatalogSearch(catalog);
  search.build();
  app.get("/registry/search", (request, reply) => {
    const answer = search.search(parseSearchQuery(queryOf(request.url)));
    return reply.headers(headers).header("content-type", contentType).header("cache-control", SEARCH_CACHE_CONTROL).send(json(answer));
  });

  // The signed release, byte for byte (never re-encoded, so its signature still verifies), revalidated on every use.
  const release = app.broker.release;
  app.get("/registry.signed", (request, reply) => {
    if (release === undefined) throw new BrokerError("not_found", "this broker serves no signed registry release");
    const common = { ...headers, etag: release.etag, "cache-control": RELEASE_CACHE_CONTROL };
    if (ifNoneMatchHits(request.headers["if-none-match"], release.etag)) return reply.code(304).headers(common).send();
    return reply.headers({ ...common, "content-type": contentType }).send(release.body);
  });

  app.get<{ Params: { id: string } }>("/registry/:id", (request, reply) => {
    const representation = byId.get(request.params.id);
    if (representation === undefined) throw new BrokerError("unknown_integration", "no integration with this id in the registry");
    return sendRepresentation(request, reply, representation);
  });

  app.get("/healthz", (_request, reply) =>
    reply
      .header("cache-control", "no-store")
      .header("content-type", contentType)
      .send(JSON.stringify({ status: "ok", registry: registry.hash })),
  );

  app.get("/", (request, reply) => {
    const query = queryOf(request.url);
    const filter = { query: bounded(single(query, "q")), category: bounded(single(query, "category")) };
    return reply
      .headers(CATALOG_PAGE_HEADERS)
      .header("cache-control", PAGE_CACHE_CONTROL)
      .send(renderCatalogPage(catalog, search, filter));
  });

  // Each integration's page is rendered once, when first asked for: it depends only on the catalog this app serves.
  const entries = new Map(catalog.integrations.map((entry) => [entry.id, entry]));
  const pages = new Map<string, string>();
  app.get<{ Params: { id: string } }>("/integrations/:id", (request, reply) => {
    const { id } = request.params;
    let page = pages.get(id);
    if (page === undefined) {
      const entry = entries.get(id);
      if (entry === undefined) throw new BrokerError("unknown_integration", "no integration with this id in the registry");
      page = renderIntegrationPage(entry);
      pages.set(id, page);
    }
    return reply.headers(INTEGRATION_PAGE_HEADERS).header("cache-control", PAGE_CACHE_CONTROL).send(page);
  });
}

export const catalogPlugin = fastifyPlugin(catalogRoutes, { name: "catalog", dependencies: [BROKER_CONTEXT], encapsulate: true, fastify: "5.x" });

function sendRepresentation(request: FastifyRequest, reply: FastifyReply, representation: Representation): FastifyReply {
  const encoded = representation.select(request.headers["accept-encoding"]);
  if (ifNoneMatchHits(request.headers["if-none-match"], encoded.etag)) return reply.code(304).headers(encoded.notModifiedHeaders).send();
  return reply.headers(encoded.headers).send(encoded.body);
}

function bounded(value: string | undefined): string {
  return value === undefined ? "" : value.slice(0, MAX_FILTER_LENGTH);
}

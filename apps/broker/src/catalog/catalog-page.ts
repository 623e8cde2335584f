import type { ServedCatalog, ServedCatalogEntry } from "./catalog.js";
import type { CatalogSearch, ServedSearchHit } from "./catalog-search.js";
import { escapeHtml, htmlDocument, htmlHeaders } from "../http/html.js";

/** What the search form asked for; both optional, both bounded by the route. */
export interface CatalogFilter {
  query: string;
  category: string;
}

/**
 * Progressive enhancement only: picking a category submits the form at once.
 * The page works the same without it (the form searches on the server), and
 * ranking stays on the server, so both give the same order.
 */
export const CATALOG_PAGE_SCRIPT = `(() => {
  const form = document.querySelector("form[role=search]");
  const category = document.getElementById("category");
  category.addEventListener("change", () => form.requestSubmit());
})();`;

/** Headers of the catalog page: its one script allowed by hash. */
export const CATALOG_PAGE_HEADERS = htmlHeaders([CATALOG_PAGE_SCRIPT]);

const PAGE_RESULTS = 50;

/**
 * The whole catalog as a page. With a query, the ranked results of the catalog
 * search come first (each a link to its integration or op below), and the
 * integrations are ordered by their best hit; entries that do not match are
 * rendered hidden.
 */
export function renderCatalogPage(catalog: ServedCatalog, search: CatalogSearch, filter: CatalogFilter): string {
  const entries = catalog.integrations;
  const categories = search.categories();
  const searching = filter.query.trim() !== "" || filter.category !== "";
  const hits = searching
    ? search.search({ q: filter.query, category: filter.category === "" ? null : filter.category, access: null, limit: PAGE_RESULTS }).results
    : [];
  const rank = new Map<string, number>();
  for (const hit of hits) if (!rank.has(hit.integration)) rank.set(hit.integration, rank.size);
  const shown = (entry: ServedCatalogEntry) => !searching || rank.has(entry.id);
  const ordered = searching ? [...entries].sort((a, b) => (rank.get(a.id) ?? Infinity) - (rank.get(b.id) ?? Infinity)) : entries;
  const count = entries.filter(shown).length;
  const body =
    `<a class="skip" href="#main">Skip to the integrations</a>` +
    `<header><h1>Eleven integrations</h1>` +
    `<p class="muted">${entries.length} integration${entries.length === 1 ? "" : "s"} · registry <code>${escapeHtml(catalog.hash.slice(0, 16))}</code> · ` +
    `<a href="/registry">JSON</a></p></header>` +
    renderSearchForm(filter, categories) +
    renderCategoryLinks(categories) +
    `<p id="count" aria-live="polite">${countLine(count, entries.length, filter.query.trim() === "" ? undefined : hits.length)}</p>` +
    (filter.query.trim() === "" ? "" : renderResults(hits)) +
    `<main id="main" tabindex="-1" aria-label="Integrations">${searching ? renderList(ordered, shown) : renderByCategory(entries, categories)}</main>`;
  return htmlDocument({ title: "Eleven integrations", body, script: CATALOG_PAGE_SCRIPT });
}

/** The address of one integration's own page. */
export function integrationPath(id: string): string {
  return `/integrations/${encodeURIComponent(id)}`;
}

/** The anchor of one op's row on the page. */
export function operationAnchor(integration: string, op: string): string {
  return `op-${integration}-${op}`;
}

function renderResults(hits: readonly ServedSearchHit[]): string {
  if (hits.length === 0)
    return `<section id="results" aria-labelledby="results-heading"><h2 id="results-heading">Results</h2><p>Nothing matches. Try fewer or other words.</p></section>`;
  const items = hits
    .map((hit) => {
      if (hit.kind === "integration") {
        return `<li><a href="${escapeHtml(integrationPath(hit.integration))}">${escapeHtml(hit.name)}</a> <small>integration · ${escapeHtml(hit.category)}</small></li>`;
      }
      return (
        `<li><a href="${escapeHtml(integrationPath(hit.integration))}#${escapeHtml(operationAnchor(hit.integration, hit.op))}">${escapeHtml(hit.name)}: ${escapeHtml(hit.label)}</a> ` +
        `<span class="access access-${hit.access}">${escapeHtml(hit.access)}</span> <small><code>${escapeHtml(hit.op)}</code></small></li>`
      );
    })
    .join("");
  return `<section id="results" aria-labelledby="results-heading"><h2 id="results-heading">Results</h2><ol>${items}</ol></section>`;
}

function renderSearchForm(filter: CatalogFilter, categories: readonly [string, number][]): string {
  const options = categories
    .map(([category]) => {
      const selected = category === filter.category ? " selected" : "";
      return `<option value="${escapeHtml(category)}"${selected}>${escapeHtml(category)}</option>`;
    })
    .join("");
  return (
    `<form role="search" method="get" action="/">` +
    `<label for="q">Search</label>` +
    `<input id="q" name="q" type="search" maxlength="200" autocomplete="off" value="${escapeHtml(filter.query)}">` +
    `<label for="category">Category</label>` +
    `<select id="category" name="category"><option value="">All</option>${options}</select>` +
    `<button type="submit">Search</button></form>`
  );
}

function renderCategoryLinks(categories: readonly [string, number][]): string {
  const links = categories
    .map(([category, count]) => `<li><a href="/?category=${escapeHtml(encodeURIComponent(category))}">${escapeHtml(category)}</a> (${count})</li>`)
    .join("");
  return `<nav aria-label="Categories"><ul><li><a href="/">All</a></li>${links}</ul></nav>`;
}

/** What the count line says: the integrations shown of all, and with a query the results listed above, so the numbers are what the page shows. */
function countLine(shown: number, total: number, results: number | undefined): string {
  const integrations = `${shown} of ${total} integration${total === 1 ? "" : "s"}`;
  if (results === undefined) return `Showing ${integrations}`;
  return `${results} result${results === 1 ? "" : "s"} · showing ${integrations}`;
}

/** The compact index: one section per category, each integration a line with its op counts; its ops are on its own page. */
function renderByCategory(entries: readonly ServedCatalogEntry[], categories: readonly [string, number][]): string {
  return categories
    .map(([category], index) => {
      const heading = `category-${index}`;
      const members = entries.filter((entry) => entry.category === category);
      return `<section aria-labelledby="${heading}"><h2 id="${heading}">${escapeHtml(category)}</h2>${renderList(members, () => true)}</section>`;
    })
    .join("");
}

function renderList(entries: readonly ServedCatalogEntry[], shown: (entry: ServedCatalogEntry) => boolean): string {
  return `<ul class="index">${entries.map((entry) => renderEntry(entry, shown(entry))).join("")}</ul>`;
}

function renderEntry(entry: ServedCatalogEntry, shown: boolean): string {
  const id = `integration-${entry.id}`;
  const reads = entry.ops.filter((op) => op.access === "read").length;
  const writes = entry.ops.length - reads;
  return (
    `<li${shown ? "" : " hidden"}><article id="${escapeHtml(id)}" data-category="${escapeHtml(entry.category)}"${shown ? "" : " hidden"}>` +
    `<a href="${escapeHtml(integrationPath(entry.id))}">${escapeHtml(entry.name)}</a> ` +
    `<small>${entry.ops.length} op${entry.ops.length === 1 ? "" : "s"}: ${reads} read, ${writes} write</small>` +
    `</article></li>`
  );
}

function renderAuth(entry: ServedCatalogEntry): string {
  const rows: string[] = [];
  if (entry.auth.pat_help !== undefined) rows.push(`<dt>Personal token</dt><dd>${linkify(entry.auth.pat_help)}</dd>`);
  const oauth = entry.auth.oauth;
  if (oauth !== undefined) {
    const scopes = oauth.scopes.length === 0 ? "no scopes" : `scopes ${oauth.scopes.map((scope) => `<code>${escapeHtml(scope)}</code>`).join(" ")}`;
    rows.push(
      entry.oauth_available === true
        ? `<dt>OAuth</dt><dd>Connect from the messenger through this broker (<code>/connect/${escapeHtml(entry.id)}/start</code>; ${scopes}).</dd>`
        : `<dt>OAuth</dt><dd class="unavailable">Not available on this broker: no OAuth app is configured (${scopes}).</dd>`,
    );
  }
  return `<dl>${rows.join("")}</dl>`;
}

/** Headers of an integration's page: no script at all. */
export const INTEGRATION_PAGE_HEADERS = htmlHeaders([]);

/**
 * One integration on its own page: how to connect it (OAuth through the messenger,
 * where to mint a token, which op names the account) and every op with its args,
 * access, confirm line and, for a write that declares one, its preview.
 */
export function renderIntegrationPage(entry: ServedCatalogEntry): string {
  const byId = new Map(entry.ops.map((op) => [op.id, op]));
  const reads = entry.ops.filter((op) => op.access === "read").length;
  const body =
    `<a class="skip" href="#main">Skip to the operations</a>` +
    `<header><nav aria-label="Breadcrumb"><ul><li><a href="/">All integrations</a></li>` +
    `<li><a href="/?category=${escapeHtml(encodeURIComponent(entry.category))}">${escapeHtml(entry.category)}</a></li></ul></nav>` +
    `<h1>${escapeHtml(entry.name)} <small>${escapeHtml(entry.id)}</small></h1>` +
    `<p class="muted">${entry.ops.length} operation${entry.ops.length === 1 ? "" : "s"} (${reads} read, ${entry.ops.length - reads} write) · API <code>${escapeHtml(entry.auth.base)}</code> · ` +
    `<a href="/registry/${escapeHtml(encodeURIComponent(entry.id))}">JSON</a></p></header>` +
    `<main id="main" tabindex="-1">` +
    `<section aria-labelledby="connect-heading"><h2 id="connect-heading">Connect</h2>${renderAuth(entry)}${renderIdentity(entry)}</section>` +
    `<section aria-labelledby="ops-heading"><h2 id="ops-heading">Operations</h2>` +
    entry.ops.map((op) => renderOperationDetail(entry, op, byId)).join("") +
    `</section></main>`;
  return htmlDocument({ title: `${entry.name} · Eleven integrations`, body });
}

type ServedOperation = ServedCatalogEntry["ops"][number];

function renderIdentity(entry: ServedCatalogEntry): string {
  const identity = entry.auth.identity;
  if (identity === undefined) return `<p class="muted">This integration names no account op: a connection does not say which account it acts as.</p>`;
  return (
    `<p>The account a connection acts as is read with ` +
    `<a href="#${escapeHtml(operationAnchor(entry.id, identity))}"><code>${escapeHtml(identity)}</code></a> when it is connected.</p>`
  );
}

function renderOperationDetail(entry: ServedCatalogEntry, op: ServedOperation, byId: ReadonlyMap<string, ServedOperation>): string {
  const anchor = operationAnchor(entry.id, op.id);
  const rows: string[] = [`<dt>Request</dt><dd><code>${escapeHtml(op.method)} ${escapeHtml(op.path)}</code></dd>`];
  rows.push(`<dt>Args</dt><dd>${renderArgs(op)}</dd>`);
  if (op.confirm !== undefined) rows.push(`<dt>Confirm line</dt><dd>${escapeHtml(op.confirm)}</dd>`);
  if (op.preview !== undefined) {
    const read = byId.get(op.preview.op);
    rows.push(
      `<dt>Preview</dt><dd>Before the member taps, reads ` +
        `<a href="#${escapeHtml(operationAnchor(entry.id, op.preview.op))}">${escapeHtml(read?.label ?? op.preview.op)}</a> and shows ` +
        `<q>${escapeHtml(op.preview.line)}</q></dd>`,
    );
  }
  if (entry.auth.identity === op.id) rows.push(`<dt>Account</dt><dd>Names the connected account.</dd>`);
  return (
    `<section class="op" id="${escapeHtml(anchor)}" aria-labelledby="${escapeHtml(anchor)}-h">` +
    `<h3 id="${escapeHtml(anchor)}-h">${escapeHtml(op.label)} <span class="access access-${op.access}">${escapeHtml(op.access)}</span>` +
    `${op.destructive === true ? ' <span class="destructive">destructive</span>' : ""}</h3>` +
    `<p class="muted"><code>${escapeHtml(op.id)}</code></p><dl>${rows.join("")}</dl></section>`
  );
}

function renderArgs(op: ServedOperation): string {
  const args = Object.entries(op.args ?? {});
  if (args.length === 0) return `<span class="muted">none</span>`;
  const items = args.map(([name, arg]) => {
    const facts = [arg.required === true ? "required" : "optional", arg.type ?? "string"];
    const choices = arg.enum === undefined ? "" : ` one of ${arg.enum.map((value) => `<code>${escapeHtml(value)}</code>`).join(", ")}`;
    const description = arg.description === undefined ? "" : ` — ${escapeHtml(arg.description)}`;
    return `<li><code>${escapeHtml(name)}</code> <span class="muted">(${escapeHtml(facts.join(", "))})</span>${choices}${description}</li>`;
  });
  return `<ul class="args">${items.join("")}</ul>`;
}

const HTTPS_URL = /(https:\/\/[^\s<>"'`]+)/;

/** Escaped text whose https URLs become links; no other scheme is ever linked. */
export function linkify(text: string): string {
  return text
    .split(HTTPS_URL)
    .map((part, index) => {
      if (index % 2 === 0) return escapeHtml(part);
      const url = part.replace(/[.,;:!?)\]]+$/, "");
      const trailing = part.slice(url.length);
      return `<a href="${escapeHtml(url)}" rel="noopener noreferrer">${escapeHtml(url)}</a>${escapeHtml(trailing)}`;
    })
    .join("");
}

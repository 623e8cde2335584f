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
    `<header><h1>Eleven integrations</h1>` +
    `<p>${entries.length} integration${entries.length === 1 ? "" : "s"} · registry <code>${escapeHtml(catalog.hash.slice(0, 16))}</code> · ` +
    `<a href="/registry">JSON</a></p></header>` +
    renderSearchForm(filter, categories) +
    renderCategoryLinks(categories) +
    `<p id="count" aria-live="polite">Showing ${count} of ${entries.length}</p>` +
    (filter.query.trim() === "" ? "" : renderResults(hits)) +
    `<main>${ordered.map((entry) => renderEntry(entry, shown(entry))).join("")}</main>`;
  return htmlDocument({ title: "Eleven integrations", body, script: CATALOG_PAGE_SCRIPT });
}

/** The anchor of one op's row on the page. */
export function operationAnchor(integration: string, op: string): string {
  return `op-${integration}-${op}`;
}

function renderResults(hits: readonly ServedSearchHit[]): string {
  if (hits.length === 0) return `<section id="results"><h2>Results</h2><p>Nothing matches. Try fewer or other words.</p></section>`;
  const items = hits
    .map((hit) => {
      if (hit.kind === "integration") {
        return `<li><a href="#integration-${escapeHtml(hit.integration)}">${escapeHtml(hit.name)}</a> <small>integration · ${escapeHtml(hit.category)}</small></li>`;
      }
      return (
        `<li><a href="#${escapeHtml(operationAnchor(hit.integration, hit.op))}">${escapeHtml(hit.name)}: ${escapeHtml(hit.label)}</a> ` +
        `<span class="access access-${hit.access}">${escapeHtml(hit.access)}</span> <small><code>${escapeHtml(hit.op)}</code></small></li>`
      );
    })
    .join("");
  return `<section id="results"><h2>Results</h2><ol>${items}</ol></section>`;
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

function renderEntry(entry: ServedCatalogEntry, shown: boolean): string {
  const id = `integration-${entry.id}`;
  return (
    `<article id="${escapeHtml(id)}" data-category="${escapeHtml(entry.category)}"${shown ? "" : " hidden"}>` +
    `<h2>${escapeHtml(entry.name)} <small>${escapeHtml(entry.id)}</small></h2>` +
    `<p class="meta">${escapeHtml(entry.category)} · API <code>${escapeHtml(entry.auth.base)}</code></p>` +
    renderAuth(entry) +
    renderOperations(entry) +
    `</article>`
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
        ? `<dt>OAuth</dt><dd>Connect from the messenger through this broker (${scopes}).</dd>`
        : `<dt>OAuth</dt><dd class="unavailable">Not available on this broker: no OAuth app is configured (${scopes}).</dd>`,
    );
  }
  return `<dl>${rows.join("")}</dl>`;
}

function renderOperations(entry: ServedCatalogEntry): string {
  const rows = entry.ops
    .map(
      (op) =>
        `<tr id="${escapeHtml(operationAnchor(entry.id, op.id))}"><td>${escapeHtml(op.label)}<br><code>${escapeHtml(op.id)}</code></td>` +
        `<td><span class="access access-${op.access}">${escapeHtml(op.access)}</span>${op.destructive === true ? ' <span class="destructive">destructive</span>' : ""}</td>` +
        `<td>${op.confirm === undefined ? "" : escapeHtml(op.confirm)}</td></tr>`,
    )
    .join("");
  return `<table><thead><tr><th>Operation</th><th>Access</th><th>Confirm line</th></tr></thead><tbody>${rows}</tbody></table>`;
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

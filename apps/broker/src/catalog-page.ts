import type { ServedCatalog, ServedCatalogEntry } from "./catalog.js";
import { escapeHtml, htmlDocument, htmlHeaders } from "./html.js";

/** What the search form asked for; both optional, both bounded by the route. */
export interface CatalogFilter {
  query: string;
  category: string;
}

/** Live filtering as the member types; the page works the same without it (the form filters on the server). */
export const CATALOG_PAGE_SCRIPT = `(() => {
  const query = document.getElementById("q");
  const category = document.getElementById("category");
  const count = document.getElementById("count");
  const items = Array.from(document.querySelectorAll("article[data-search]"));
  const apply = () => {
    const terms = query.value.toLowerCase().split(/\\s+/).filter(Boolean);
    let shown = 0;
    for (const item of items) {
      const match = (category.value === "" || item.dataset.category === category.value) &&
        terms.every((term) => item.dataset.search.includes(term));
      item.hidden = !match;
      if (match) shown += 1;
    }
    count.textContent = "Showing " + shown + " of " + items.length;
  };
  query.addEventListener("input", apply);
  category.addEventListener("change", apply);
})();`;

/** Headers of the catalog page: its one script allowed by hash. */
export const CATALOG_PAGE_HEADERS = htmlHeaders([CATALOG_PAGE_SCRIPT]);

/** The whole catalog as a page; entries that do not match the filter are rendered hidden, so live search can show them. */
export function renderCatalogPage(catalog: ServedCatalog, filter: CatalogFilter): string {
  const entries = catalog.integrations;
  const matches = entries.map((entry) => matchesFilter(entry, filter));
  const shown = matches.filter(Boolean).length;
  const categories = countCategories(entries);
  const body =
    `<header><h1>Eleven integrations</h1>` +
    `<p>${entries.length} integration${entries.length === 1 ? "" : "s"} · registry <code>${escapeHtml(catalog.hash.slice(0, 16))}</code> · ` +
    `<a href="/registry">JSON</a></p></header>` +
    renderSearchForm(filter, categories) +
    renderCategoryLinks(categories) +
    `<p id="count" aria-live="polite">Showing ${shown} of ${entries.length}</p>` +
    `<main>${entries.map((entry, index) => renderEntry(entry, matches[index] === true)).join("")}</main>`;
  return htmlDocument({ title: "Eleven integrations", body, script: CATALOG_PAGE_SCRIPT });
}

/** The text live search and the server match against: lowercase id, name, category and op labels. */
export function searchText(entry: ServedCatalogEntry): string {
  return [entry.id, entry.name, entry.category, ...entry.ops.flatMap((op) => [op.id, op.label])].join(" ").toLowerCase();
}

function matchesFilter(entry: ServedCatalogEntry, filter: CatalogFilter): boolean {
  if (filter.category !== "" && entry.category !== filter.category) return false;
  const text = searchText(entry);
  return filter.query
    .toLowerCase()
    .split(/\s+/)
    .filter((term) => term !== "")
    .every((term) => text.includes(term));
}

function countCategories(entries: readonly ServedCatalogEntry[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const entry of entries) counts.set(entry.category, (counts.get(entry.category) ?? 0) + 1);
  return [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
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
    `<article id="${escapeHtml(id)}" data-category="${escapeHtml(entry.category)}" data-search="${escapeHtml(searchText(entry))}"${shown ? "" : " hidden"}>` +
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
        `<tr><td>${escapeHtml(op.label)}<br><code>${escapeHtml(op.id)}</code></td>` +
        `<td><span class="access access-${op.access}">${escapeHtml(op.access)}</span></td>` +
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

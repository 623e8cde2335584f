import { escapeHtml, htmlDocument, htmlHeaders } from "./html.js";

/** Headers of an error page: no script at all. */
export const ERROR_PAGE_HEADERS = htmlHeaders([]);

/** The page a browser sees for a refused request: the status, the code and the message, escaped. */
export function renderErrorPage(statusCode: number, code: string, message: string): string {
  return htmlDocument({
    title: `Error ${statusCode}: ${code}`,
    body:
      `<main class="error"><h1>Something went wrong</h1>` +
      `<p>${escapeHtml(message)}</p>` +
      `<p>Status <code>${statusCode}</code>, code <code>${escapeHtml(code)}</code>.</p>` +
      `<p><a href="/">Back to the catalog</a></p></main>`,
  });
}

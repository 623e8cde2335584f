import { createHash } from "node:crypto";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text safe inside an element or a quoted attribute. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? character);
}

/** The one stylesheet of every page the broker renders, inline so no external asset is loaded. */
export const STYLESHEET = `
:root{color-scheme:light dark;font-family:system-ui,sans-serif;line-height:1.45}
body{margin:0 auto;max-width:64rem;padding:1rem 1.25rem 3rem}
h1{margin:.5rem 0}h2{margin:0 0 .25rem;font-size:1.25rem}h2 small{font-weight:normal;opacity:.7;font-size:.8rem}
code{font-size:.9em;overflow-wrap:anywhere}
form{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;margin:1rem 0}
input,select,button{font:inherit;padding:.3rem .5rem}
nav ul{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem .75rem;padding:0;margin:0 0 1rem}
article{border:1px solid #8884;border-radius:.5rem;padding:1rem;margin:0 0 1rem}
article[hidden]{display:none}
.meta{margin:0 0 .5rem;opacity:.8}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:.5rem 0}dt{font-weight:600}dd{margin:0}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem .5rem;border-top:1px solid #8883;vertical-align:top}
.access{font-size:.8rem;padding:.05rem .4rem;border-radius:.25rem;border:1px solid currentColor}
.access-write{color:#b3261e}.access-read{color:#1b6e3a}
.unavailable{opacity:.7}
.destructive{font-size:.8rem;font-weight:600;color:#b3261e}
tr:target,article:target{outline:2px solid #1b6e3a;outline-offset:2px}
#results ol{padding-left:1.5rem}
.error{border-left:4px solid #b3261e;padding:.5rem 1rem}
`;

/** `'sha256-…'` of an inline script or style, for the Content-Security-Policy. */
export function cspHash(source: string): string {
  return `'sha256-${createHash("sha256").update(source, "utf8").digest("base64")}'`;
}

/**
 * The policy of a rendered page: nothing loads from anywhere, only the given
 * inline style and scripts (by hash) run, forms post back here only, no framing.
 */
export function contentSecurityPolicy(scripts: readonly string[]): string {
  const scriptSource = scripts.length === 0 ? "'none'" : scripts.map(cspHash).join(" ");
  return [
    "default-src 'none'",
    `style-src ${cspHash(STYLESHEET)}`,
    `script-src ${scriptSource}`,
    "img-src 'none'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Headers every HTML answer carries. */
export function htmlHeaders(scripts: readonly string[]): Record<string, string> {
  return {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": contentSecurityPolicy(scripts),
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
  };
}

/** A whole HTML document; `title` is escaped here, `body` must already be escaped. */
export function htmlDocument(options: { title: string; body: string; script?: string }): string {
  const script = options.script === undefined ? "" : `<script>${options.script}</script>`;
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(options.title)}</title><style>${STYLESHEET}</style></head>` +
    `<body>${options.body}${script}</body></html>`
  );
}

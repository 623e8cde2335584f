import { createHash } from "node:crypto";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text safe inside an element or a quoted attribute. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? character);
}

/** The one stylesheet of every page the broker renders, inline so no external asset is loaded. */
export const STYLESHEET = `
:root{color-scheme:light dark;font-family:system-ui,sans-serif;line-height:1.5;--bg:#fff;--fg:#1c1c1e;--muted:#555a60;--line:#d4d7dc;--card:#f7f8fa;--link:#0b57d0;--read:#146c2e;--write:#a8201a;--focus:#0b57d0}
@media (prefers-color-scheme:dark){:root{--bg:#121316;--fg:#ececf0;--muted:#b4b8bf;--line:#3a3d44;--card:#1c1e22;--link:#9cc3ff;--read:#7fd99a;--write:#ff9b93;--focus:#9cc3ff}}
*{box-sizing:border-box}
body{margin:0 auto;max-width:64rem;padding:1rem 1.25rem 3rem;background:var(--bg);color:var(--fg);overflow-wrap:anywhere}
a{color:var(--link)}a:hover{text-decoration-thickness:2px}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.skip{position:absolute;left:-100vw;top:0;background:var(--bg);padding:.5rem 1rem}.skip:focus{left:1rem}
h1{margin:.5rem 0;font-size:1.75rem}h2{margin:0 0 .25rem;font-size:1.25rem}h3{margin:0 0 .25rem;font-size:1.05rem}
h2 small,h1 small{font-weight:normal;color:var(--muted);font-size:.8rem}
code{font-size:.9em;overflow-wrap:anywhere}
.muted,.meta{color:var(--muted)}
form{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;margin:1rem 0}
input,select,button{font:inherit;padding:.4rem .6rem;color:var(--fg);background:var(--bg);border:1px solid var(--muted);border-radius:.35rem;max-width:100%}
input[type=search]{flex:1 1 12rem;min-width:0}
button{background:var(--link);color:var(--bg);border-color:var(--link);cursor:pointer}
nav ul{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem .75rem;padding:0;margin:0 0 1rem}
article,.op{border:1px solid var(--line);background:var(--card);border-radius:.5rem;padding:1rem;margin:0 0 1rem}
article[hidden]{display:none}
.meta{margin:0 0 .5rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:.5rem 0}dt{font-weight:600}dd{margin:0;min-width:0}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem .5rem;border-top:1px solid var(--line);vertical-align:top}
.access{font-size:.8rem;padding:.05rem .4rem;border-radius:.25rem;border:1px solid currentColor;white-space:nowrap}
.access-write{color:var(--write)}.access-read{color:var(--read)}
.unavailable{color:var(--muted)}
.destructive{font-size:.8rem;font-weight:600;color:var(--write)}
tr:target,article:target,.op:target{outline:2px solid var(--read);outline-offset:2px}
#results ol{padding-left:1.5rem}
.error{border-left:4px solid var(--write);padding:.5rem 1rem}
.args{list-style:none;padding:0;margin:.25rem 0}.args li{margin:.15rem 0}
.index{list-style:none;padding:0;margin:0 0 1rem;display:grid;grid-template-columns:repeat(auto-fill,minmax(15rem,1fr));gap:.25rem 1rem}.index li[hidden]{display:none}
.index article{border:0;background:none;padding:.15rem 0;margin:0}.index small{color:var(--muted)}
@media (max-width:40rem){body{padding:.75rem .75rem 2rem}dl{grid-template-columns:1fr}dd{margin-bottom:.4rem}table,tbody,tr,td{display:block}thead{position:absolute;left:-100vw}tr{border-top:1px solid var(--line);padding:.4rem 0}td{border:0;padding:.1rem 0}}
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

import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import type { FastifyInstance } from "fastify";
import { testApp } from "../__fixtures__/test-app.js";
import { CATALOG_PAGE_SCRIPT, linkify } from "./catalog-page.js";
import { escapeHtml, STYLESHEET } from "../http/html.js";
import { loadRegistry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";

function destructiveRegistry() {
  const json = {
    schema: 1,
    id: "shredder",
    name: "Shredder",
    category: "testing",
    auth: { kind: "pat", base: "https://api.shredder.example.com", authorization: "Bearer", pat_help: "https://shredder.example.com/tokens" },
    ops: [
      { id: "files.list", label: "List files", access: "read", method: "GET", path: "/files" },
      {
        id: "files.delete",
        label: "Delete a file",
        access: "write",
        method: "DELETE",
        path: "/files/{id}",
        args: { id: { required: true } },
        confirm: "Delete file {id}",
        destructive: true,
      },
    ],
  };
  return loadRegistry([{ file: "shredder.json", json }]);
}

let app: FastifyInstance;
afterEach(async () => {
  await app.close();
});

async function page(url = "/") {
  app = testApp().app;
  return app.inject({ method: "GET", url, headers: { accept: "text/html" } });
}

function articles(body: string): { id: string; hidden: boolean }[] {
  return [...body.matchAll(/<article id="integration-([a-z0-9-]+)"[^>]*?( hidden)?>/g)].map((match) => ({
    id: match[1] as string,
    hidden: match[2] !== undefined,
  }));
}

describe("GET / (catalog page)", () => {
  it("opens on a compact index: each integration a line under its category with its op counts, its ops on its own page", async () => {
    const response = await page();
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(
      articles(response.body)
        .map((entry) => entry.id)
        .sort(),
    ).toEqual(["nasty", "noapp", "patonly", "testauth"]);
    expect(response.body).toMatch(/<a href="\/integrations\/testauth">Test Auth<\/a> <small>\d+ ops?: \d+ read, \d+ write<\/small>/);
    expect(response.body).toContain('<h2 id="category-0">');
    // No op table, no confirm line: those are on each integration's page.
    expect(response.body).not.toContain("<table");
    expect(response.body).not.toContain("Create the note “{title}”?");
    expect(response.body).toContain("Showing 4 of 4 integrations");
    await app.close();
    app = testApp().app;
    const own = await app.inject({ method: "GET", url: "/integrations/testauth", headers: { accept: "text/html" } });
    expect(own.body).toContain("Create the note “{title}”?");
    expect(own.body).toContain('<span class="access access-write">write</span>');
    expect(own.body).toContain('<span class="access access-read">read</span>');
  });

  it("says on each integration's page where to mint a token, linking only https URLs, and whether OAuth is available", async () => {
    const response = { body: "" };
    for (const id of ["patonly", "testauth", "noapp"]) {
      if (app !== undefined) await app.close();
      app = testApp().app;
      response.body += (await app.inject({ method: "GET", url: `/integrations/${id}`, headers: { accept: "text/html" } })).body;
    }
    expect(response.body).toContain('<a href="https://patonly.example.com/tokens" rel="noopener noreferrer">');
    expect(response.body).toContain(
      '<a href="https://auth.example.test/settings/tokens" rel="noopener noreferrer">https://auth.example.test/settings/tokens</a>.',
    );
    expect(response.body).toContain("Connect from the messenger through this broker");
    expect(response.body).toContain("Not available on this broker: no OAuth app is configured");
    expect(response.body).not.toContain('href="javascript:');
  });

  it("escapes every value from a manifest: no markup of theirs survives, on the index and on the integration's page", async () => {
    const index = await page();
    await app.close();
    app = testApp().app;
    const own = await app.inject({ method: "GET", url: "/integrations/nasty", headers: { accept: "text/html" } });
    const response = { body: index.body + own.body };
    expect(response.body).not.toContain("<script>alert");
    expect(response.body).not.toContain("<img src=x");
    expect(response.body).not.toContain("</td><script>");
    expect(response.body).toContain("&lt;script&gt;alert(&#39;name&#39;)&lt;/script&gt;");
    expect(response.body).toContain("&lt;img src=x onerror=alert(&#39;label&#39;)&gt;");
    expect(response.body).toContain('data-category="x&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"');
    expect(response.body).toContain("&lt;b&gt;bold&lt;/b&gt;");
    // The only script element is the index's own (the integration's page has none).
    expect(response.body.match(/<script>/g)).toHaveLength(1);
  });

  it("loads nothing external and sends a CSP that allows exactly its inline style and script", async () => {
    const response = await page();
    const csp = response.headers["content-security-policy"] as string;
    const sha = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`script-src ${sha(CATALOG_PAGE_SCRIPT)}`);
    expect(csp).toContain(`style-src ${sha(STYLESHEET)}`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.body).toContain(`<script>${CATALOG_PAGE_SCRIPT}</script>`);
    expect(response.body).toContain(`<style>${STYLESHEET}</style>`);
    expect(response.body).not.toMatch(/<(link|img|iframe)\b/);
    expect(response.body).not.toMatch(/\bsrc="/);
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["x-frame-options"]).toBe("DENY");
  });

  it("searches on the server: non-matching integrations are rendered hidden, the query echoed escaped", async () => {
    const response = await page("/?q=note");
    expect(
      articles(response.body)
        .filter((entry) => !entry.hidden)
        .map((entry) => entry.id),
    ).toEqual(["testauth"]);
    expect(response.body).toContain('value="note"');
    expect(response.body).toMatch(/\d+ results? · showing 1 of 4 integrations/);
    await app.close();
    const hostile = await page(`/?q=${encodeURIComponent('"><script>alert(1)</script>')}`);
    expect(hostile.body).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(hostile.body.match(/<script>/g)).toHaveLength(1);
  });

  it("filters by category and lists the categories with counts", async () => {
    const response = await page("/?category=development");
    expect(
      articles(response.body)
        .filter((entry) => !entry.hidden)
        .map((entry) => entry.id),
    ).toEqual(["patonly"]);
    expect(response.body).toContain('<option value="development" selected>development</option>');
    expect(response.body).toContain('<a href="/?category=testing">testing</a> (1)');
    expect(response.body).toContain('<a href="/?category=x%22%3E%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E">');
  });
});

describe("GET / uses the catalog search", () => {
  it("lists ranked results (typo tolerant) linking to the op rows, and orders the integrations by their best hit", async () => {
    const response = await page("/?q=creat%20nte");
    const results = response.body.slice(response.body.indexOf('<section id="results"'), response.body.indexOf("</section>"));
    expect(results).toContain('<a href="/integrations/testauth#op-testauth-notes.create">Test Auth: Create a note</a>');
    expect(
      articles(response.body)
        .filter((entry) => !entry.hidden)
        .map((entry) => entry.id)[0],
    ).toBe("testauth");
  });

  it("says so when nothing matches", async () => {
    const response = await page("/?q=zzzzzzzz");
    expect(response.body).toContain("Nothing matches.");
    expect(response.body).toContain("0 results · showing 0 of 4 integrations");
  });

  it("marks destructive ops on the integration's page", async () => {
    app = (await import("../__fixtures__/test-app.js")).testApp({ registry: destructiveRegistry(), oauthApps: {} }).app;
    const index = await app.inject({ method: "GET", url: "/", headers: { accept: "text/html" } });
    expect(index.body).not.toContain('<span class="destructive">');
    const marked = await app.inject({ method: "GET", url: "/integrations/shredder", headers: { accept: "text/html" } });
    expect(marked.body).toContain('write</span> <span class="destructive">destructive</span>');
  });
});

describe("escaping helpers", () => {
  it("escapeHtml escapes the five characters that matter and nothing else", () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe("&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;");
    expect(escapeHtml("plain “text” ✓")).toBe("plain “text” ✓");
  });

  it("linkify links https URLs only, keeping trailing punctuation outside the link", () => {
    expect(linkify("see https://x.example.com/a.")).toBe('see <a href="https://x.example.com/a" rel="noopener noreferrer">https://x.example.com/a</a>.');
    expect(linkify("http://x.example.com javascript:alert(1) data:text/html,<b>")).toBe("http://x.example.com javascript:alert(1) data:text/html,&lt;b&gt;");
    expect(linkify('https://x.example.com/"onmouseover="alert(1)')).toBe(
      '<a href="https://x.example.com/" rel="noopener noreferrer">https://x.example.com/</a>&quot;onmouseover=&quot;alert(1)',
    );
  });
});

describe("GET /integrations/:id (an integration's page)", () => {
  async function integrationPage(id: string) {
    app = (await import("../__fixtures__/test-app.js")).testApp({ registry: loadRegistry(manifestFiles), oauthApps: {} }).app;
    return app.inject({ method: "GET", url: `/integrations/${id}`, headers: { accept: "text/html" } });
  }

  it("shows every op with its args, access, confirm line and declared preview, the token link and the account op", async () => {
    const response = await integrationPage("dropbox");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-security-policy"]).toContain("script-src 'none'");
    const dropbox = loadRegistry(manifestFiles)
      .integrations()
      .find((manifest) => manifest.id === "dropbox");
    if (dropbox === undefined) throw new Error("dropbox manifest missing");
    for (const op of dropbox.ops) {
      expect(response.body).toContain(`<section class="op" id="op-dropbox-${op.id}"`);
      if (op.confirm !== undefined) expect(response.body).toContain(escapeHtml(op.confirm));
      if (op.preview !== undefined) expect(response.body).toContain(`<q>${escapeHtml(op.preview.line)}</q>`);
      for (const name of Object.keys(op.args ?? {})) expect(response.body).toContain(`<code>${name}</code>`);
    }
    expect(dropbox.ops.some((op) => op.preview !== undefined)).toBe(true);
    expect(response.body).toContain(`read with <a href="#op-dropbox-${dropbox.auth.identity}">`);
    expect(response.body).toContain("Not available on this broker: no OAuth app is configured");
    expect(response.body).toContain('<a class="skip" href="#main">');
    expect(response.body).toContain('<main id="main"');
  });

  it("answers 404 for an id the registry does not hold", async () => {
    const response = await integrationPage("nope");
    expect(response.statusCode).toBe(404);
  });
});

import { loadRegistry, type Registry } from "@eleven-integrations/loader";

/** Host names the test manifests name. */
export const EXAMPLE_HOST = "api.example.com";
export const BARE_HOST = "api.bare.example.org";
/** Where a hostile answer tries to send the executor. */
export const EVIL_HOST = "evil.example";

const label = "A test operation";

/** A manifest exercising every request feature: path and query args, bodies, pick, every method. */
export const exampleManifest = {
  schema: 1,
  id: "example",
  name: "Example",
  category: "development",
  auth: {
    kind: "pat",
    base: `https://${EXAMPLE_HOST}/v2`,
    authorization: "Bearer",
    headers: { Accept: "application/vnd.example+json", "X-Api-Version": "2024-01-01" },
    pat_help: "https://example.com/settings/tokens",
  },
  ops: [
    {
      id: "items.get",
      label,
      access: "read",
      method: "GET",
      path: "/items/{id}",
      args: { id: { required: true, max_length: 300 } },
      pick: { fields: ["id", "name"] },
    },
    {
      id: "items.search",
      label,
      access: "read",
      method: "GET",
      path: "/search?q={q}&per_page=20&sort={sort}",
      args: { q: { required: true, max_length: 300 }, sort: { enum: ["created", "updated"] } },
    },
    {
      id: "issues.get",
      label,
      access: "read",
      method: "GET",
      path: "/repos/{owner}/{repo}/issues/{number}",
      args: { owner: { required: true, max_length: 39 }, repo: { required: true, max_length: 100 }, number: { required: true, pattern: "[0-9]{1,9}" } },
    },
    { id: "items.list", label, access: "read", method: "GET", path: "/items", pick: { fields: ["id", "user.login", "labels.name", "missing.field"] } },
    { id: "items.wrapped", label, access: "read", method: "GET", path: "/wrapped", pick: { root: "data.items", fields: ["id", "owner.login"] } },
    { id: "items.root", label, access: "read", method: "GET", path: "/rooted", pick: { root: "data" } },
    { id: "raw.get", label, access: "read", method: "GET", path: "/raw" },
    {
      id: "items.create",
      label,
      access: "write",
      method: "POST",
      path: "/items",
      args: { title: { required: true, max_length: 300 }, body: { max_length: 4096 }, label: {} },
      body_json: { title: "{title}", body: "{body}", labels: ["bot"], meta: { label: "{label}", query: "{ viewer { id } }" } },
      confirm: "Create “{title}”?",
      pick: { fields: ["id"] },
    },
    {
      id: "items.update",
      label,
      access: "write",
      method: "PATCH",
      path: "/items/{id}",
      args: { id: { required: true }, title: { required: true } },
      body_json: { title: "{title}" },
      confirm: "Rename {id} to {title}?",
    },
    { id: "items.replace", label, access: "write", method: "PUT", path: "/items/{id}", args: { id: { required: true } }, confirm: "Replace {id}?" },
    { id: "items.delete", label, access: "write", method: "DELETE", path: "/items/{id}", args: { id: { required: true } }, confirm: "Delete {id}?" },
    { id: "graph.query", label, access: "read", method: "POST", path: "/graphql", body_json: { query: "{ viewer { id } }" }, pick: { root: "data" } },
    {
      id: "customers.create",
      label,
      access: "write",
      method: "POST",
      path: "/customers",
      encoding: "form",
      args: { email: { required: true }, plan: {}, name: {} },
      body_json: { email: "{email}", name: "{name}", metadata: { plan: "{plan}" }, expand: ["default_source"] },
      confirm: "Create a customer for {email}?",
    },
  ],
};

/** An API that takes the bare token as its authorization header (`none`), like Linear's. */
export const bareManifest = {
  schema: 1,
  id: "bare",
  name: "Bare",
  category: "productivity",
  auth: {
    kind: "both",
    base: `https://${BARE_HOST}`,
    authorization: "none",
    pat_help: "https://bare.example.org/tokens",
    // Like Linear: a personal key is sent bare, a token from the OAuth flow as Bearer.
    oauth: {
      authorize_url: "https://bare.example.org/oauth/authorize",
      token_url: "https://api.bare.example.org/oauth/token",
      scopes: ["read"],
      authorization: "Bearer",
    },
  },
  ops: [{ id: "viewer.get", label, access: "read", method: "GET", path: "/viewer" }],
};

export function testRegistry(): Registry {
  return loadRegistry([
    { file: "example.json", json: exampleManifest },
    { file: "bare.json", json: bareManifest },
  ]);
}

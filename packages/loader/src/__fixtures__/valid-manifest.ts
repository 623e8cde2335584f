/** A manifest that exercises every feature of schema v1; tests mutate copies of it. */
export function validManifest(): Record<string, unknown> {
  return {
    $schema: "../node_modules/@eleven-integrations/schema/manifest.schema.json",
    schema: 1,
    id: "example",
    name: "Example",
    category: "development",
    auth: {
      kind: "both",
      base: "https://api.example.com/v2",
      authorization: "Bearer",
      headers: { Accept: "application/json", "X-Api-Version": "2024-01-01" },
      pat_help: "https://example.com/settings/tokens",
      oauth: {
        authorize_url: "https://example.com/oauth/authorize",
        token_url: "https://example.com/oauth/token",
        scopes: ["repo", "read:user"],
      },
    },
    ops: [
      {
        id: "repos.list",
        label: "List your repositories",
        access: "read",
        method: "GET",
        path: "/user/repos?per_page=20&sort={sort}",
        args: { sort: { enum: ["created", "updated"] } },
        pick: { fields: ["full_name", "owner.login", "private"] },
      },
      {
        id: "issues.get",
        label: "Read an issue",
        access: "read",
        method: "GET",
        path: "/repos/{owner}/{repo}/issues/{number}",
        args: {
          owner: { required: true, max_length: 39 },
          repo: { required: true, max_length: 100 },
          number: { required: true, pattern: "[0-9]{1,9}" },
        },
        pick: { root: "issue", fields: ["title", "user.login", "labels.name"] },
      },
      {
        id: "issues.create",
        label: "Open an issue",
        access: "write",
        method: "POST",
        path: "/repos/{owner}/{repo}/issues",
        args: {
          owner: { required: true },
          repo: { required: true },
          title: { required: true, max_length: 256, description: "The issue's title" },
          body: { max_length: 4096 },
        },
        body_json: { title: "{title}", body: "{body}", labels: ["bot"], query: "{ viewer { id } }" },
        confirm: "Open “{title}” in {owner}/{repo}?",
        pick: { fields: ["number", "html_url"] },
      },
      {
        id: "customers.create",
        label: "Create a customer",
        access: "write",
        method: "POST",
        path: "/customers",
        encoding: "form",
        args: { email: { required: true }, plan: {} },
        body_json: { email: "{email}", metadata: { plan: "{plan}" } },
        confirm: "Create a customer for {email}",
      },
    ],
  };
}

import { loadRegistry, type Registry } from "@eleven-integrations/loader";

/** Every provider-truth test manifest lives on this host, each under its own base path. */
export const PROVIDER_HOST = "api.provider.example";
export const OTHER_HOST = "other.provider.example";

const label = "A test operation";
const pat = (path: string) => ({ kind: "pat", base: `https://${PROVIDER_HOST}${path}`, authorization: "Bearer", pat_help: "https://provider.example/tokens" });

/** Slack's dialect: 200 with `"ok": false` and a code in `error`; body cursor in `response_metadata.next_cursor`. */
export const flagManifest = {
  schema: 1,
  id: "flag",
  name: "Flag",
  category: "communication",
  auth: pat("/api"),
  errors: {
    failed_when: { path: "ok", equals: false },
    code: "error",
    message: ["detail", "warning"],
    codes: {
      invalid_auth: "unauthorized",
      not_authed: "unauthorized",
      missing_scope: "forbidden",
      channel_not_found: "not_found",
      ratelimited: "rate_limited",
    },
  },
  ops: [
    {
      id: "channels.list",
      label,
      access: "read",
      method: "GET",
      path: "/conversations.list?limit=2&cursor={cursor}",
      args: { cursor: { max_length: 1024 } },
      page: { from: "body", arg: "cursor", cursor: "response_metadata.next_cursor" },
      pick: { root: "channels", fields: ["id", "name"] },
    },
    {
      id: "users.list",
      label,
      access: "read",
      method: "GET",
      path: "/users.list?limit=2&cursor={cursor}",
      args: { cursor: { max_length: 1024 } },
      page: { from: "body", arg: "cursor", cursor: "response_metadata.next_cursor" },
      pick: { root: "members", fields: ["id"] },
    },
    {
      id: "chat.post",
      label,
      access: "write",
      method: "POST",
      path: "/chat.postMessage",
      args: { channel: { required: true }, text: { required: true } },
      body_json: { channel: "{channel}", text: "{text}" },
      confirm: "Post to {channel}: {text}",
      pick: { fields: ["ts"] },
    },
  ],
};

/** GraphQL's dialect (Linear): `errors` present means failed; cursor in `pageInfo` with `hasNextPage`. */
export const graphManifest = {
  schema: 1,
  id: "graph",
  name: "Graph",
  category: "project-management",
  auth: { ...pat(""), authorization: "none" },
  errors: {
    failed_when: { path: "errors", present: true },
    code: "errors.extensions.code",
    message: "errors.message",
    codes: { AUTHENTICATION_ERROR: "unauthorized", FORBIDDEN: "forbidden", RATELIMITED: "rate_limited" },
  },
  ops: [
    {
      id: "teams.list",
      label,
      access: "read",
      method: "POST",
      path: "/graphql",
      args: { after: { max_length: 512 } },
      body_json: {
        query: "query($after: String) { teams(first: 2, after: $after) { nodes { id } pageInfo { hasNextPage endCursor } } }",
        variables: { after: "{after}" },
      },
      page: { from: "body", arg: "after", cursor: "data.teams.pageInfo.endCursor", more: "data.teams.pageInfo.hasNextPage" },
      pick: { root: "data.teams.nodes", fields: ["id"] },
    },
  ],
};

/** Status-code dialects (GitHub `message`, Stripe `error.message`, Google `error.status`) and the other paging styles. */
export const restManifest = {
  schema: 1,
  id: "rest",
  name: "Rest",
  category: "development",
  auth: pat("/v1"),
  errors: { code: ["error.status", "error.code", "code"], message: ["message", "error.message"], codes: { RATE_LIMIT_EXCEEDED: "rate_limited" } },
  ops: [
    {
      id: "repos.list",
      label,
      access: "read",
      method: "GET",
      path: "/user/repos?per_page=2&page={page}",
      args: { page: { pattern: "[0-9]{1,6}" } },
      page: { from: "link", arg: "page", query_key: "page" },
      pick: { fields: ["id"] },
    },
    {
      id: "issues.list",
      label,
      access: "read",
      method: "GET",
      path: "/repos/{owner}/issues?per_page=2&after={after}",
      args: { owner: { required: true }, after: { max_length: 512 } },
      page: { from: "link", arg: "after", query_key: "after", link_paths: ["/v1/repositories/*/issues"] },
      pick: { fields: ["id"] },
    },
    {
      id: "customers.list",
      label,
      access: "read",
      method: "GET",
      path: "/customers?limit=2&starting_after={starting_after}",
      args: { starting_after: { max_length: 255 } },
      page: { from: "last_item", arg: "starting_after", items: "data", key: "id", more: "has_more" },
      pick: { root: "data", fields: ["id"] },
    },
    {
      id: "events.list",
      label,
      access: "read",
      method: "GET",
      path: "/calendars/{calendar}/events?maxResults=2&pageToken={page_token}",
      args: { calendar: { required: true }, page_token: { max_length: 1024 } },
      page: { from: "body", arg: "page_token", cursor: "nextPageToken" },
      pick: { root: "items", fields: ["id"] },
    },
    {
      id: "blocks.search",
      label,
      access: "read",
      method: "POST",
      path: "/search",
      args: { query: {}, start_cursor: { max_length: 1024 } },
      body_json: { query: "{query}", start_cursor: "{start_cursor}", page_size: 2 },
      page: { from: "body", arg: "start_cursor", cursor: "next_cursor", more: "has_more" },
      pick: { root: "results", fields: ["id"] },
    },
    { id: "items.get", label, access: "read", method: "GET", path: "/items/{id}", args: { id: { required: true } }, pick: { fields: ["id"] } },
  ],
};

/** A first-release manifest: no dialect, no paging. */
export const plainManifest = {
  schema: 1,
  id: "plain",
  name: "Plain",
  category: "development",
  auth: pat("/plain"),
  ops: [{ id: "items.list", label, access: "read", method: "GET", path: "/items?cursor={cursor}", args: { cursor: {} } }],
};

export function providerRegistry(): Registry {
  return loadRegistry([flagManifest, graphManifest, restManifest, plainManifest].map((manifest) => ({ file: `${manifest.id}.json`, json: manifest })));
}

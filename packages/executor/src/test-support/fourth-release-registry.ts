import { loadRegistry, type Registry } from "@eleven-integrations/loader";

/** Hosts the fourth-release (transport) test manifests reach. */
export const API_HOST = "api.transport.example.com";
export const CONTENT_HOST = "content.transport.example.com";
export const QUERY_HOST = "api.querytoken.example.com";

const label = "A test operation";

/** Dropbox-shaped: a content host, op headers, a header credential, offset and page paging. */
export const transportManifest = {
  schema: 1,
  id: "transport",
  name: "Transport",
  category: "files",
  auth: {
    kind: "pat",
    base: `https://${API_HOST}/2`,
    authorization: "Bearer",
    pat_help: "https://example.com/tokens",
    credential: { in: "header", name: "X-Test-Token" },
    hosts: { content: `https://${CONTENT_HOST}/2` },
  },
  ops: [
    {
      id: "files.tag",
      label,
      access: "write",
      method: "POST",
      host: "content",
      path: "/files/tag",
      args: { path: { required: true, max_length: 1000 }, key: { max_length: 200 } },
      headers: { "Dropbox-API-Arg": '{"path":"{path}","mode":"add"}', "Idempotency-Key": "{key}" },
      confirm: "Tag {path}",
    },
    {
      id: "files.list",
      label,
      access: "read",
      method: "GET",
      path: "/files?limit={limit}&offset={offset}",
      args: { limit: { type: "integer" }, offset: { type: "integer" } },
      page: { from: "offset", arg: "offset", limit_arg: "limit", items: "entries", total: "total" },
      pick: { root: "entries", fields: ["id"] },
    },
    {
      id: "items.list",
      label,
      access: "read",
      method: "GET",
      path: "/items?per_page=2&page={page}",
      args: { page: { type: "integer" } },
      page: { from: "page", arg: "page", limit: 2, items: "items", more: "has_more" },
    },
    {
      id: "content.list",
      label,
      access: "read",
      method: "GET",
      host: "content",
      path: "/list",
      page: { from: "next_path", path: "next" },
    },
    {
      id: "files.download",
      label,
      access: "read",
      method: "POST",
      host: "content",
      path: "/files/download",
      args: { path: { required: true, max_length: 1000 } },
      headers: { "Dropbox-API-Arg": '{"path":"{path}"}' },
      result: "file",
    },
    { id: "content.get", label, access: "read", method: "GET", host: "content", path: "/get/{id}", args: { id: { required: true } } },
  ],
};

/** CircleCI-shaped: the bare token as a query parameter, next paths and link paging. */
export const queryTokenManifest = {
  schema: 1,
  id: "querytoken",
  name: "Query token",
  category: "development",
  auth: {
    kind: "pat",
    base: `https://${QUERY_HOST}/api/v2`,
    authorization: "Bearer",
    pat_help: "https://example.com/tokens",
    credential: { in: "query", name: "circle-token" },
  },
  errors: { message: ["message"] },
  ops: [
    { id: "me.get", label, access: "read", method: "GET", path: "/me?verbose={verbose}", args: { verbose: { enum: ["true"] } } },
    { id: "pipelines.list", label, access: "read", method: "GET", path: "/pipeline", page: { from: "next_path", path: "next" } },
    {
      id: "projects.list",
      label,
      access: "read",
      method: "GET",
      path: "/projects?cursor={cursor}",
      args: { cursor: { max_length: 1000 } },
      page: { from: "body", arg: "cursor", cursor: "next_page_token" },
    },
  ],
};

/** Uploads: bytes to the content host (Dropbox-shaped), multipart related (Drive-shaped) and form-data. */
export const uploadManifest = {
  schema: 1,
  id: "upload",
  name: "Upload",
  category: "files",
  auth: {
    kind: "pat",
    base: `https://${API_HOST}/2`,
    authorization: "Bearer",
    pat_help: "https://example.com/tokens",
    hosts: { content: `https://${CONTENT_HOST}/2` },
  },
  ops: [
    {
      id: "files.upload",
      label,
      access: "write",
      method: "POST",
      host: "content",
      path: "/files/upload",
      encoding: "bytes",
      args: { path: { required: true, max_length: 1000 }, file: { required: true, type: "file" } },
      headers: { "Dropbox-API-Arg": '{"path":"{path}","mode":"add"}' },
      confirm: "Upload {file} to {path}",
    },
    {
      id: "files.put",
      label,
      access: "write",
      method: "POST",
      host: "content",
      path: "/files/put",
      encoding: "bytes",
      content_type: "application/octet-stream",
      args: { file: { required: true, type: "file" } },
      confirm: "Put {file}",
    },
    {
      id: "files.create",
      label,
      access: "write",
      method: "POST",
      path: "/upload/files?uploadType=multipart",
      encoding: "multipart",
      multipart: { kind: "related", parts: [{ json: { name: "{name}", parents: ["{folder}"] } }, { file: "file" }] },
      args: { name: { required: true, max_length: 255 }, folder: { max_length: 100 }, file: { required: true, type: "file" } },
      confirm: "Upload {file} as {name}",
    },
    {
      id: "files.form",
      label,
      access: "write",
      method: "POST",
      path: "/form",
      encoding: "multipart",
      multipart: {
        kind: "form-data",
        parts: [
          { name: "channel", json: "{channel}" },
          { name: "file", file: "file" },
        ],
      },
      args: { channel: { required: true, max_length: 100 }, file: { required: true, type: "file" } },
      confirm: "Post {file} to {channel}",
    },
  ],
};

export function fourthReleaseRegistry(): Registry {
  return loadRegistry([
    { file: "transport.json", json: transportManifest },
    { file: "querytoken.json", json: queryTokenManifest },
    { file: "upload.json", json: uploadManifest },
  ]);
}

import { randomBytes } from "node:crypto";
import { loadRegistry, type Registry } from "@eleven-integrations/loader";

export const AUTH_HOST = "auth.example.test";
export const AUTH_ORIGIN = `https://${AUTH_HOST}`;
export const PUBLIC_URL = "https://broker.example.test";
export const RETURN_TO = "https://app.example.test/connected";
export const CLIENT_ID = "broker-test-client";
export const CLIENT_SECRET = "test-client-secret-0123456789abcdef";

/** A fresh 32-byte key, unpadded base64url (Node's base64url never pads). */
export function randomKey(): string {
  return randomBytes(32).toString("base64url");
}

/** An OAuth integration (also PAT) whose provider is the test authorization server. */
export const oauthManifest = {
  schema: 1,
  id: "testauth",
  name: "Test Auth",
  category: "testing",
  auth: {
    kind: "both",
    base: AUTH_ORIGIN,
    authorization: "Bearer",
    pat_help: `Create a token at ${AUTH_ORIGIN}/settings/tokens.`,
    oauth: { authorize_url: `${AUTH_ORIGIN}/auth`, token_url: `${AUTH_ORIGIN}/token`, scopes: ["openid"] },
  },
  ops: [
    { id: "me.get", label: "Who am I", access: "read", method: "GET", path: "/me" },
    {
      id: "notes.create",
      label: "Create a note",
      access: "write",
      method: "POST",
      path: "/notes",
      args: { title: { required: true } },
      body_json: { title: "{title}" },
      confirm: "Create the note “{title}”?",
    },
  ],
};

export const patManifest = {
  schema: 1,
  id: "patonly",
  name: "PAT Only",
  category: "development",
  auth: { kind: "pat", base: "https://api.patonly.example.com", authorization: "token", pat_help: "https://patonly.example.com/tokens" },
  ops: [{ id: "repos.list", label: "List repositories", access: "read", method: "GET", path: "/repos" }],
};

/** An OAuth integration the test configurations hold no app for. */
export const noAppManifest = {
  schema: 1,
  id: "noapp",
  name: "No App",
  category: "productivity",
  auth: {
    kind: "oauth",
    base: "https://api.noapp.example.com",
    authorization: "Bearer",
    oauth: { authorize_url: "https://noapp.example.com/oauth/authorize", token_url: "https://noapp.example.com/oauth/token", scopes: ["read", "write"] },
  },
  ops: [{ id: "items.list", label: "List items", access: "read", method: "GET", path: "/items" }],
};

/** Markup in every free-text field: the page must show it as text. */
export const nastyManifest = {
  schema: 1,
  id: "nasty",
  name: "<script>alert('name')</script>",
  category: 'x"><img src=x onerror=alert(1)>',
  auth: {
    kind: "pat",
    base: "https://api.nasty.example.com",
    authorization: "Bearer",
    pat_help: 'javascript:alert(1) then https://nasty.example.com/t?a=1&b="2" <b>bold</b>',
  },
  ops: [
    {
      id: "items.delete",
      label: "<img src=x onerror=alert('label')>",
      access: "write",
      method: "DELETE",
      path: "/items/{id}",
      args: { id: { required: true } },
      confirm: "Delete </td><script>alert('confirm')</script> {id}?",
    },
  ],
};

export function testRegistry(manifests: object[] = [oauthManifest, patManifest, noAppManifest, nastyManifest]): Registry {
  return loadRegistry(manifests.map((json) => ({ file: `${(json as { id: string }).id}.json`, json })));
}

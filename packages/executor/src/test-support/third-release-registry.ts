import { loadRegistry, type Registry } from "@eleven-integrations/loader";

/** Hosts the third-release test manifests reach. */
export const TENANT_SUFFIX = "tenant.example.com";
export const ACME_HOST = `acme.${TENANT_SUFFIX}`;
export const OTHER_TENANT_HOST = `other.${TENANT_SUFFIX}`;
export const FEATURES_HOST = "api.features.example.com";
export const CLOUD_ID = "11223344-a1b2-3b33-c444-def123456789";

const label = "A test operation";

/** A Zendesk-shaped manifest: `https://{subdomain}.tenant.example.com/api/v2`. */
export const tenantManifest = {
  schema: 1,
  id: "tenanted",
  name: "Tenanted",
  category: "support",
  auth: {
    kind: "pat",
    base: `https://{subdomain}.${TENANT_SUFFIX}/api/v2`,
    authorization: "Bearer",
    pat_help: "https://example.com/tokens",
    tenant: { subdomain: { pattern: "[a-z0-9][a-z0-9-]{0,62}", description: "Your help center's subdomain" } },
  },
  ops: [
    {
      id: "tickets.get",
      label,
      access: "read",
      method: "GET",
      path: "/tickets/{id}.json",
      args: { id: { required: true, pattern: "[0-9]{1,12}" } },
      pick: { root: "ticket", fields: ["id", "subject"] },
    },
    // An op whose own arg shares the tenant setting's name: it can only ever fill its query value.
    { id: "tickets.search", label, access: "read", method: "GET", path: "/search.json?subdomain={subdomain}", args: { subdomain: { max_length: 100 } } },
  ],
};

/** A Jira-shaped manifest: the tenant is a whole path segment of the base. */
export const pathTenantManifest = {
  schema: 1,
  id: "pathtenant",
  name: "Path tenant",
  category: "development",
  auth: {
    kind: "pat",
    base: `https://${FEATURES_HOST}/ex/jira/{cloudid}`,
    authorization: "Bearer",
    pat_help: "https://example.com/tokens",
    tenant: { cloudid: { pattern: "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}" } },
  },
  ops: [{ id: "issues.get", label, access: "read", method: "GET", path: "/rest/api/3/issue/{key}", args: { key: { required: true } } }],
};

/** Segment suffixes, typed args, continuation ops and next paths, on one fixed host. */
export const featuresManifest = {
  schema: 1,
  id: "features",
  name: "Features",
  category: "development",
  auth: { kind: "pat", base: `https://${FEATURES_HOST}/v1`, authorization: "Bearer", pat_help: "https://example.com/tokens" },
  ops: [
    {
      id: "sheets.batch_update",
      label,
      access: "write",
      method: "POST",
      path: "/spreadsheets/{spreadsheet_id}:batchUpdate",
      args: { spreadsheet_id: { required: true } },
      body_json: { requests: [] },
      confirm: "Update spreadsheet {spreadsheet_id}",
    },
    {
      id: "messages.get",
      label,
      access: "read",
      method: "GET",
      path: "/Accounts/{account_sid}/Messages/{sid}.json",
      args: { account_sid: { required: true }, sid: { required: true } },
    },
    {
      id: "meetings.create",
      label,
      access: "write",
      method: "POST",
      path: "/users/me/meetings",
      args: {
        topic: { required: true },
        duration: { required: true, type: "integer" },
        muted: { type: "boolean" },
        rate: { type: "number" },
        note: { type: "string" },
      },
      body_json: {
        topic: "{topic}",
        duration: "{duration}",
        settings: { mute_upon_entry: "{muted}" },
        rate: "{rate}",
        label: "{duration} minutes",
        note: "{note}",
      },
      confirm: "Schedule {topic} for {duration} minutes",
    },
    {
      id: "invoices.create",
      label,
      access: "write",
      method: "POST",
      path: "/invoices",
      encoding: "form",
      args: { amount: { required: true, type: "integer" }, paid: { type: "boolean" } },
      body_json: { amount: "{amount}", paid: "{paid}" },
      confirm: "Invoice {amount}",
    },
    {
      id: "files.list",
      label,
      access: "read",
      method: "POST",
      path: "/files/list_folder",
      args: { path: { max_length: 200 } },
      body_json: { path: "{path}" },
      page: { from: "body", cursor: "cursor", more: "has_more", next_op: "files.list_continue" },
      pick: { root: "entries", fields: ["name"] },
    },
    {
      id: "files.list_continue",
      label,
      access: "read",
      method: "POST",
      path: "/files/list_folder/continue",
      args: { cursor: { required: true, max_length: 1000 } },
      body_json: { cursor: "{cursor}" },
      page: { from: "body", arg: "cursor", cursor: "cursor", more: "has_more" },
      pick: { root: "entries", fields: ["name"] },
    },
    {
      id: "records.query",
      label,
      access: "read",
      method: "GET",
      path: "/query?q={q}",
      args: { q: { required: true, max_length: 500 } },
      page: { from: "next_path", path: "nextRecordsUrl" },
      pick: { root: "records", fields: ["Id"] },
    },
    {
      id: "messages.list",
      label,
      access: "read",
      method: "GET",
      path: "/me/messages?$select=id,subject&$top=2",
      page: { from: "next_path", top_key: "@odata.nextLink" },
      pick: { root: "value", fields: ["id", "subject"] },
    },
  ],
};

export function thirdReleaseRegistry(): Registry {
  return loadRegistry([
    { file: "tenanted.json", json: tenantManifest },
    { file: "pathtenant.json", json: pathTenantManifest },
    { file: "features.json", json: featuresManifest },
  ]);
}

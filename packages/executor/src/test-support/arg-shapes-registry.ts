import { loadRegistry, type Registry } from "@eleven-integrations/loader";

/** The host the arg-shapes manifest reaches. */
export const SHAPES_HOST = "api.shapes.example.com";

const label = "A test operation";
const send = {
  to: { type: "string[]", max_items: 5, required: true },
  cc: { type: "string[]", max_items: 5 },
  bcc: { type: "string[]", max_items: 5 },
  subject: { required: true, max_length: 500 },
  text: { max_length: 4096 },
  in_reply_to: { max_length: 500 },
  references: { max_length: 2000 },
  thread_id: { pattern: "[0-9a-f]{1,32}" },
};

/** One op per fourth-release arg shape (issue 38). */
export const shapesManifest = {
  schema: 1,
  id: "shapes",
  name: "Shapes",
  category: "testing",
  auth: { kind: "pat", base: `https://${SHAPES_HOST}/v1`, authorization: "Bearer", pat_help: "https://example.com/tokens" },
  ops: [
    {
      id: "issues.label",
      label,
      access: "write",
      method: "POST",
      path: "/issues?label={labels}&state={state}",
      args: {
        labels: { type: "string[]", max_items: 3, required: true, pattern: "[a-z-]{1,20}" },
        ids: { type: "integer[]", max_items: 4 },
        state: { enum: ["open", "closed"] },
      },
      body_json: { labels: "{labels}", ids: "{ids}" },
      confirm: "Label with {labels}",
    },
    {
      id: "files.read",
      label,
      access: "read",
      method: "GET",
      path: "/repos/{owner}/contents/{path}?ref={ref}",
      args: { owner: { required: true }, path: { type: "path", required: true, max_length: 1024 }, ref: {} },
    },
    {
      id: "items.create",
      label,
      access: "write",
      method: "POST",
      path: "/items",
      args: {
        title: { required: true },
        visibility: { enum: ["public", "private"] },
        due: {},
        guests: { type: "string[]", max_items: 3, pattern: "[a-z]+@example\\.com" },
      },
      body_json: {
        title: "{title}",
        due: "{due}",
        parent: null,
        private: { $when: { arg: "visibility", eq: "private" }, value: { hidden: true, reason: null } },
        tags: ["a", { $when: { arg: "visibility", eq: "public" }, value: "shared" }],
        guests: { $each: "guests", value: { email: "{guests}", optional: true } },
      },
      confirm: "Create {title}",
    },
    {
      id: "mail.send",
      label,
      access: "write",
      method: "POST",
      path: "/messages",
      encoding: "rfc2822",
      args: send,
      body_json: { raw: "{message}", threadId: "{thread_id}" },
      confirm: "Send “{subject}” to {to}",
    },
    {
      id: "files.upload",
      label,
      access: "write",
      method: "POST",
      path: "/files",
      args: { file: { type: "file", required: true }, title: {} },
      body_json: { title: "{title}" },
      confirm: "Upload {file}",
    },
  ],
};

export function shapesRegistry(): Registry {
  return loadRegistry([{ file: "shapes.json", json: shapesManifest }]);
}

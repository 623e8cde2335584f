// `pnpm docs:generate`: the configuration tables of docs/operating.md, generated
// from the apps' zod schemas (`brokerEnvironmentSchema`, `brokerFileSchema`,
// `sidecarEnvironmentSchema`): a variable added to a schema appears in the table.
// `--check` exits 1 when the document is stale (the test does the same).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { repositoryRoot } from "./lib/workspace.mjs";

export const OPERATING_DOC = join(repositoryRoot, "docs", "operating.md");

function cell(text) {
  return String(text).replace(/\|/g, "\\|").replace(/\n/g, " ");
}

/** A field's accepted values, as a reader wants them: `info`, `warn`…, a pattern, a type. */
function format(jsonSchema) {
  if (jsonSchema === undefined) return "";
  if (Array.isArray(jsonSchema.enum)) return jsonSchema.enum.map((value) => `\`${value}\``).join(", ");
  if (jsonSchema.anyOf) return jsonSchema.anyOf.map(format).filter(Boolean).join(" or ");
  if (jsonSchema.type === "array") return `list of ${format(jsonSchema.items) || "values"}`;
  if (jsonSchema.type === "object") return jsonSchema.additionalProperties ? `object of ${format(jsonSchema.additionalProperties) || "values"}` : "object";
  if (jsonSchema.type === "integer" || jsonSchema.type === "number") {
    const range = jsonSchema.minimum !== undefined && jsonSchema.maximum !== undefined ? ` ${jsonSchema.minimum}–${jsonSchema.maximum}` : "";
    return `${jsonSchema.type}${range}`;
  }
  if (jsonSchema.pattern) return `string matching \`${jsonSchema.pattern}\``;
  return jsonSchema.type ?? "";
}

function toJsonSchema(schema) {
  return z.toJSONSchema(schema, { unrepresentable: "any", io: "input" });
}

/** The table of an app's environment variables: one row per key of `schema`. */
export function environmentTable(schema) {
  const json = toJsonSchema(schema);
  const rows = Object.keys(schema.shape).map((name) => {
    const meta = schema.shape[name].meta() ?? {};
    const accepted = format(json.properties?.[name]);
    return `| \`${name}\` | ${cell(meta.default ?? "")} | ${cell(accepted)} | ${cell(meta.description ?? "")}${meta.secret ? " **Secret.**" : ""} |`;
  });
  return ["| Variable | Default | Accepts | Meaning |", "| --- | --- | --- | --- |", ...rows].join("\n");
}

/**
 * The table of the broker's configuration file: one row per key of the file schema,
 * with the environment variable that takes the same value (from the environment
 * schema's `file` metadata) and its meaning.
 */
export function fileTable(fileSchema, environmentSchema) {
  const json = toJsonSchema(fileSchema);
  const required = new Set(json.required ?? []);
  const twins = new Map();
  for (const name of Object.keys(environmentSchema.shape)) {
    const meta = environmentSchema.shape[name].meta() ?? {};
    if (meta.file) twins.set(meta.file, { name, meta });
  }
  const rows = Object.keys(fileSchema.shape).map((key) => {
    const twin = twins.get(key);
    const own = fileSchema.shape[key].meta?.() ?? {};
    const description = own.description ?? twin?.meta.description ?? "";
    return `| \`${key}\` | ${required.has(key) ? "yes" : ""} | ${twin ? `\`${twin.name}\`` : ""} | ${cell(format(json.properties?.[key]))} | ${cell(description)} |`;
  });
  return ["| Key | Required | Variable | Accepts | Meaning |", "| --- | --- | --- | --- | --- |", ...rows].join("\n");
}

/** Every generated table, by the marker name it lives under in docs/operating.md. */
export async function renderTables() {
  const broker = await import("@eleven-integrations/broker");
  const sidecar = await import("@eleven-integrations/sidecar");
  return {
    "broker-environment": environmentTable(broker.brokerEnvironmentSchema),
    "broker-file": fileTable(broker.brokerFileSchema, broker.brokerEnvironmentSchema),
    "sidecar-environment": environmentTable(sidecar.sidecarEnvironmentSchema),
  };
}

/** `text` with each `<!-- generated:NAME -->…<!-- /generated:NAME -->` block replaced. */
export function updateDocument(text, tables) {
  let result = text;
  for (const [name, table] of Object.entries(tables)) {
    const pattern = new RegExp(`(<!-- generated:${name} [^>]*-->\\n)[\\s\\S]*?(<!-- /generated:${name} -->)`);
    if (!pattern.test(result)) throw new Error(`docs/operating.md has no <!-- generated:${name} … --> block`);
    result = result.replace(pattern, (_, start, end) => `${start}${table}\n${end}`);
  }
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = readFileSync(OPERATING_DOC, "utf8");
  const updated = updateDocument(text, await renderTables());
  if (process.argv.includes("--check")) {
    if (updated !== text) {
      console.error("docs/operating.md: the configuration tables are stale; run pnpm docs:generate");
      process.exit(1);
    }
    console.log("docs/operating.md: configuration tables up to date");
  } else {
    writeFileSync(OPERATING_DOC, updated);
    console.log(updated === text ? "docs/operating.md: already up to date" : "docs/operating.md: configuration tables regenerated");
  }
}

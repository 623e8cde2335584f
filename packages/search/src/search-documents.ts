import type { Manifest, Operation } from "@eleven-integrations/schema";

/** What the index needs of a manifest (a catalog entry or a loaded manifest both fit). */
export type SearchableIntegration = Pick<Manifest, "id" | "name" | "category" | "auth" | "ops">;

/** One indexed thing: an integration, or one op of it. */
export interface SearchDocument {
  /** `<integration>` or `<integration> <op>`: unique across the registry. */
  key: string;
  kind: "integration" | "op";
  integration: string;
  op: string;
  /** The integration's id and name. */
  title: string;
  /** The op's id, split into words by the tokenizer. */
  opName: string;
  label: string;
  /** For an op: its arg names and descriptions and its confirm template; for an integration: its op labels. */
  description: string;
  category: string;
  /** The integration this document is, or whose op it is. */
  source: SearchableIntegration;
  /** The op, for an op's document. */
  operation: Operation | undefined;
  /** Its place in registry order (integrations sorted by id, each followed by its ops): ties in score keep it. */
  position: number;
}

/** Every integration, then each of its ops, as documents for the index. */
export function searchDocuments(integrations: readonly SearchableIntegration[]): SearchDocument[] {
  const documents: SearchDocument[] = [];
  for (const integration of integrations) {
    const title = `${integration.id} ${integration.name}`;
    documents.push({
      key: integration.id,
      kind: "integration",
      integration: integration.id,
      op: "",
      title,
      opName: "",
      label: "",
      description: integration.ops.map((operation) => operation.label).join(" "),
      category: integration.category,
      source: integration,
      operation: undefined,
      position: documents.length,
    });
    for (const operation of integration.ops) {
      const args = Object.entries(operation.args ?? {}).map(([name, arg]) => `${name} ${arg.description ?? ""}`);
      documents.push({
        key: `${integration.id} ${operation.id}`,
        kind: "op",
        integration: integration.id,
        op: operation.id,
        title,
        opName: operation.id,
        label: operation.label,
        description: [...args, operation.confirm ?? ""].join(" "),
        category: integration.category,
        source: integration,
        operation,
        position: documents.length,
      });
    }
  }
  return documents;
}

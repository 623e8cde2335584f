import { request } from "undici";
import { createSearchIndex, type SearchHit } from "@eleven-integrations/search";
import { UsageError, type CommandIo } from "../io.js";
import { resolveRegistry } from "../resolve-registry.js";
import { oneStandardInput, readSecretArgument } from "../secret-input.js";
import type { ReadinessHit } from "@eleven-integrations/sidecar-protocol";
import { askOnce, connectForCommand } from "../sidecar-client.js";
import { escapeJson, escapeText } from "../terminal-text.js";

export interface SearchCommand {
  words: string;
  dir: string | undefined;
  broker: string | undefined;
  /** `unix:/path` or `http://127.0.0.1:P`; absent: no readiness, the local registry or a broker. */
  sidecar: string | undefined;
  callerTokenFile: string;
  /** Each `@file` or `-`, never a grant itself. */
  grants: readonly string[];
  category: string | undefined;
  access: string | undefined;
  limit: string | undefined;
  json: boolean;
}

type CatalogHit = SearchHit & { oauth_available?: boolean };

/**
 * `integrations search <words>`: the catalog search. Against a sidecar (with the
 * bot's grants) it prints each op's readiness and next action; against a broker,
 * its `/registry/search`; otherwise the same index over the local registry.
 * Exits 1 when nothing matches.
 */
export async function search(command: SearchCommand, io: CommandIo): Promise<number> {
  const access = command.access;
  if (access !== undefined && access !== "read" && access !== "write") throw new UsageError("--access must be read or write");
  const limit = command.limit === undefined ? 20 : Number(command.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new UsageError("--limit must be a whole number from 1 to 100");
  if ([...command.words].length > 200) throw new UsageError("the search words are longer than 200 characters");
  if (command.grants.length > 0 && command.sidecar === undefined) throw new UsageError("--grant needs --sidecar: readiness is the sidecar's answer");
  if (command.sidecar !== undefined && command.broker !== undefined) throw new UsageError("give --sidecar or --broker, not both");

  if (command.sidecar !== undefined) {
    oneStandardInput(command.grants);
    const grants: string[] = [];
    for (const reference of command.grants) grants.push(await readSecretArgument("grant", reference, io));
    const client = await connectForCommand(command.sidecar, command.callerTokenFile);
    const answer = await askOnce(
      client,
      (sidecar) =>
        sidecar.search({
          q: command.words,
          grants,
          ...(command.category === undefined ? {} : { category: command.category }),
          ...(access === undefined ? {} : { access }),
          limit,
        }),
      io,
    );
    if (answer === undefined) return 1;
    if (command.json) io.stdout(`${escapeJson(answer)}\n`);
    else printReadiness(answer.results, io);
    return answer.results.length > 0 ? 0 : 1;
  }

  let hits: CatalogHit[];
  let json: unknown;
  if (command.broker !== undefined) {
    const fetched = await brokerSearch(command.broker, command.words, command.category, access, limit, io);
    if (fetched === undefined) return 1;
    hits = fetched.results;
    json = fetched;
  } else {
    const registry = await resolveRegistry(command.dir, io.cwd);
    hits = createSearchIndex(registry.integrations()).search(command.words, { category: command.category, access, limit });
    json = { hash: registry.hash, query: { q: command.words, category: command.category ?? null, access: access ?? null }, results: hits };
  }
  if (command.json) io.stdout(`${escapeJson(json)}\n`);
  else printHits(hits, io);
  return hits.length > 0 ? 0 : 1;
}

async function brokerSearch(broker: string, q: string, category: string | undefined, access: string | undefined, limit: number, io: CommandIo) {
  let url: URL;
  try {
    url = new URL("/registry/search", broker);
  } catch {
    throw new UsageError("--broker must be a URL, such as https://connect.eleven.example");
  }
  const loopback = ["127.0.0.1", "[::1]", "localhost"].includes(url.hostname);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) throw new UsageError("--broker must be https (http only on loopback)");
  url.searchParams.set("q", q);
  if (category !== undefined) url.searchParams.set("category", category);
  if (access !== undefined) url.searchParams.set("access", access);
  url.searchParams.set("limit", String(limit));
  try {
    const response = await request(url, { method: "GET", headers: { accept: "application/json" } });
    const text = await response.body.text();
    if (response.statusCode !== 200) {
      io.stderr(`the broker answered ${response.statusCode}: ${escapeText(text.slice(0, 300))}\n`);
      return undefined;
    }
    return JSON.parse(text) as { results: CatalogHit[] };
  } catch (error) {
    io.stderr(`cannot search the broker at ${url.origin}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).name}\n`);
    return undefined;
  }
}

function printHits(hits: readonly CatalogHit[], io: CommandIo): void {
  if (hits.length === 0) io.stderr("nothing matches\n");
  hits.forEach((hit, index) => {
    const oauth = hit.oauth_available === undefined ? "" : hit.oauth_available ? "  (OAuth here)" : "  (OAuth not here)";
    const line =
      hit.kind === "integration"
        ? `${hit.integration}  ${hit.name}  [${hit.category}, ${hit.auth}]${oauth}`
        : `${hit.integration} ${hit.op}  ${hit.access}${hit.destructive ? ", destructive" : ""}  ${hit.label}${oauth}`;
    io.stdout(`${String(index + 1).padStart(2)}. ${escapeText(line)}\n`);
  });
}

function printReadiness(results: readonly ReadinessHit[], io: CommandIo): void {
  if (results.length === 0) io.stderr("nothing matches\n");
  results.forEach((result, index) => {
    const head = `${result.integration} ${result.op}  ${result.access}${result.destructive ? ", destructive" : ""}  ${result.label}  [${result.readiness}]`;
    io.stdout(`${String(index + 1).padStart(2)}. ${escapeText(head)}\n    ${escapeText(result.next_action)}\n`);
  });
}

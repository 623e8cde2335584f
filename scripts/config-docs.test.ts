import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { environmentTable, fileTable, OPERATING_DOC, renderTables, updateDocument } from "./config-docs.mjs";

describe("docs/operating.md configuration tables", () => {
  it("are what the apps' zod schemas generate today (run pnpm docs:generate when this fails)", async () => {
    const text = readFileSync(OPERATING_DOC, "utf8");
    expect(updateDocument(text, await renderTables())).toBe(text);
  });

  it("follow the schema: a variable added to an environment schema gets its row", () => {
    const schema = z.object({
      REDIS_URL: z
        .string()
        .regex(/^rediss?:\/\//)
        .optional()
        .meta({ description: "Shared state.", default: "none", secret: true }),
      PORT: z.string().optional().meta({ description: "Port.", default: "8787" }),
    });
    expect(environmentTable(schema).split("\n")).toEqual([
      "| Variable | Default | Accepts | Meaning |",
      "| --- | --- | --- | --- |",
      "| `REDIS_URL` | none | string matching `^rediss?:\\/\\/` | Shared state. **Secret.** |",
      "| `PORT` | 8787 | string | Port. |",
    ]);
  });

  it("lists every key of the config file schema, required ones marked, with the variable that takes the same value", () => {
    const environment = z.object({ APP_URL: z.string().optional().meta({ description: "The URL.", file: "url" }) });
    const file = z.strictObject({ url: z.string(), retries: z.number().int().min(0).max(5).optional().meta({ description: "Retries." }) });
    expect(fileTable(file, environment).split("\n").slice(2)).toEqual([
      "| `url` | yes | `APP_URL` | string | The URL. |",
      "| `retries` |  |  | integer 0–5 | Retries. |",
    ]);
  });

  it("refuses a document without a generated block rather than dropping a table", () => {
    expect(() => updateDocument("# no markers\n", { "broker-environment": "| x |" })).toThrow("no <!-- generated:broker-environment");
  });

  it("documents every variable the apps declare (names taken from the built apps)", async () => {
    const text = readFileSync(OPERATING_DOC, "utf8");
    const broker = await import("@eleven-integrations/broker");
    const sidecar = await import("@eleven-integrations/sidecar");
    for (const name of [...Object.keys(broker.brokerEnvironmentSchema.shape), ...Object.keys(sidecar.sidecarEnvironmentSchema.shape)]) {
      expect(text).toContain(`| \`${name}\` |`);
    }
  });
});

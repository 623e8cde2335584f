// Every shipped write that declares a `preview` shows something real: its preview read,
// run with the args the write's recorded exchange (__fixtures__/<id>.json) was given,
// gets every arg it requires, and that read's recorded picked answer fills every field of
// the line (none shows as "(none)").
import { readFileSync } from "node:fs";
import { loadRegistry, PREVIEW_NONE, type Registry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";
import { describe, expect, it } from "vitest";

const registry: Registry = loadRegistry(manifestFiles);
const fixturesOf = (id: string) =>
  JSON.parse(readFileSync(new URL(`./__fixtures__/${id}.json`, import.meta.url), "utf8")) as Record<string, { args: Record<string, string>; picked: unknown }>;

const previewed = registry
  .integrations()
  .flatMap((manifest) => manifest.ops.filter((op) => op.preview !== undefined).map((op) => [manifest.id, op.id] as const));

describe("shipped previews", () => {
  it("there are some", () => {
    expect(previewed.length).toBeGreaterThan(0);
  });

  it.each(previewed)("%s %s: the preview read gets its required args and its recorded answer fills the line", (id, opId) => {
    const write = registry.operation(id, opId);
    const preview = write?.preview;
    expect(preview).toBeDefined();
    const fixtures = fixturesOf(id);
    const read = registry.operation(id, preview?.op as string);
    const args = preview?.args(fixtures[opId]?.args ?? {}) ?? {};
    for (const [name, arg] of read?.args ?? new Map()) {
      if (arg.required) expect(args[name], `${id} ${preview?.op} needs ${name}`).toEqual(expect.any(String));
    }
    const rendered = preview?.renderLine(fixtures[preview.op]?.picked);
    expect(rendered?.ok).toBe(true);
    expect(rendered?.ok === true ? rendered.line : "").not.toContain(PREVIEW_NONE);
  });
});

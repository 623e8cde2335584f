import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const root = new URL("../", import.meta.url);
const biome = JSON.parse(readFileSync(new URL("biome.json", root), "utf8"));
const readme = readFileSync(new URL("README.md", root), "utf8");

type RuleGroups = Record<string, Record<string, unknown> | string>;

/** `group/rule` for every rule a rules block sets to "off". */
function rulesOff(rules: RuleGroups | undefined): string[] {
  const off: string[] = [];
  for (const [group, entries] of Object.entries(rules ?? {})) {
    if (typeof entries !== "object") continue;
    for (const [rule, level] of Object.entries(entries)) {
      const value = typeof level === "object" && level !== null ? (level as { level?: unknown }).level : level;
      if (value === "off") off.push(`${group}/${rule}`);
    }
  }
  return off;
}

describe("biome.json's rules that are off", () => {
  const off = [
    ...rulesOff(biome.linter?.rules),
    ...(biome.overrides ?? []).flatMap((override: { linter?: { rules?: RuleGroups } }) => rulesOff(override.linter?.rules)),
  ];
  const table = readme.slice(readme.indexOf("| rule | why it is off |"));
  const rows = table.slice(0, table.indexOf("\n\n")).split("\n").slice(2);

  it("are read from biome.json", () => {
    expect(off).toContain("suspicious/noAssignInExpressions");
  });

  it.each(off)("%s has its reason in the README's table", (rule) => {
    const row = rows.find((line) => line.includes(`\`${rule}\``));
    expect(row, `add a row for ${rule} to the README's table of rules that are off, or turn it back on`).toBeDefined();
    expect((row as string).split("|")[2]?.trim().length).toBeGreaterThan(20);
  });
});

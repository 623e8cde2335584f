import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));

describe("every published package, packed on its own", () => {
  it("installs from its tarball in an empty folder, imports, and the packed CLI validates the packed manifests", () => {
    const output = execFileSync("node", ["scripts/pack-check.mjs"], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    expect(output).toContain(
      "imported: @eleven-integrations/schema, @eleven-integrations/loader, @eleven-integrations/executor, @eleven-integrations/grants, @eleven-integrations/cli, @eleven-integrations/manifests",
    );
    expect(output).toMatch(/ok: 9 manifests, \d+ ops valid in node_modules\/@eleven-integrations\/manifests\/integrations/);
  }, 240_000);
});

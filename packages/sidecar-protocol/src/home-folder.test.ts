import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readCallerToken, sidecarHome, sidecarHomePaths } from "./home-folder.js";
import { SidecarClientError } from "./sidecar-client-error.js";

describe("the home folder", () => {
  it("is $SIDECAR_HOME, else ~/.eleven-sidecar", () => {
    expect(sidecarHome({ SIDECAR_HOME: "/srv/bot" })).toBe("/srv/bot");
    expect(sidecarHome({ SIDECAR_HOME: "" })).toMatch(/\/\.eleven-sidecar$/);
    expect(sidecarHome({})).toMatch(/\/\.eleven-sidecar$/);
  });

  it("names every file the sidecar keeps", () => {
    expect(sidecarHomePaths("/srv/bot")).toEqual({
      home: "/srv/bot",
      callerToken: "/srv/bot/caller-token",
      socket: "/srv/bot/sidecar.sock",
      botKey: "/srv/bot/bot-key.json",
      receiptKey: "/srv/bot/receipt-key.json",
      trustedMembers: "/srv/bot/trusted-members.json",
      audit: "/srv/bot/audit.log",
      replay: "/srv/bot/replay.log",
      revocations: "/srv/bot/revocations.log",
      registryCache: "/srv/bot/registry-release.json",
    });
  });

  it("reads the caller token without its line feed; a missing or empty file is a typed error that quotes nothing", async () => {
    const home = await mkdtemp(join(tmpdir(), "protocol-home-"));
    const file = sidecarHomePaths(home).callerToken;
    await writeFile(file, "s3cret-token\n", { mode: 0o600 });
    expect(await readCallerToken(file)).toBe("s3cret-token");
    await writeFile(file, " \n");
    await expect(readCallerToken(file)).rejects.toMatchObject({ code: "caller_token_unreadable" });
    const missing = await readCallerToken(join(home, "nope")).catch((error: unknown) => error);
    expect(SidecarClientError.isInstance(missing) && missing.code).toBe("caller_token_unreadable");
    expect((missing as Error).message).toContain("ENOENT");
  });
});

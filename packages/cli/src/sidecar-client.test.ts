import { describe, expect, it } from "vitest";
import { connectSidecar } from "./sidecar-client.js";
import { defaultSidecarAddress } from "./sidecar-home.js";

describe("connectSidecar", () => {
  it.each(["unix:sidecar.sock", "https://127.0.0.1:8787", "http://example.com:8787", "http://127.0.0.1:8787/path", "127.0.0.1:8787", ""])(
    "refuses the address %j before reading the token",
    async (address) => {
      await expect(connectSidecar(address, "/nonexistent/caller-token")).rejects.toMatchObject({ name: "SidecarClientError", code: "invalid_target" });
    },
  );

  it("names the caller token file it cannot read", async () => {
    await expect(connectSidecar("unix:/run/bot/sidecar.sock", "/nonexistent/caller-token")).rejects.toMatchObject({
      code: "caller_token_unreadable",
      message: expect.stringContaining("/nonexistent/caller-token"),
    });
  });
});

describe("defaultSidecarAddress", () => {
  it("is the socket in the sidecar's home, never a TCP port", () => {
    expect(defaultSidecarAddress({ SIDECAR_HOME: "/srv/bot" })).toBe("unix:/srv/bot/sidecar.sock");
    expect(defaultSidecarAddress({})).toMatch(/^unix:\/.*\/\.eleven-sidecar\/sidecar\.sock$/);
  });

  it("takes ELEVEN_SIDECAR (or the older ELEVEN_SIDECAR_URL) when set", () => {
    expect(defaultSidecarAddress({ ELEVEN_SIDECAR: "http://127.0.0.1:9000", SIDECAR_HOME: "/srv/bot" })).toBe("http://127.0.0.1:9000");
    expect(defaultSidecarAddress({ ELEVEN_SIDECAR_URL: "unix:/run/bot.sock" })).toBe("unix:/run/bot.sock");
  });
});

import { describe, expect, it } from "vitest";
import { defaultSidecarAddress, parseSidecarAddress, SidecarClientError } from "./sidecar-client.js";

describe("parseSidecarAddress", () => {
  it("takes a socket path or a loopback http origin", () => {
    expect(parseSidecarAddress("unix:/home/bot/.eleven-sidecar/sidecar.sock")).toEqual({ kind: "unix", path: "/home/bot/.eleven-sidecar/sidecar.sock" });
    expect(parseSidecarAddress("http://127.0.0.1:8787")).toEqual({ kind: "tcp", origin: "http://127.0.0.1:8787" });
    expect(parseSidecarAddress("http://[::1]:9000/")).toEqual({ kind: "tcp", origin: "http://[::1]:9000" });
    expect(parseSidecarAddress("http://localhost:9000")).toEqual({ kind: "tcp", origin: "http://localhost:9000" });
  });

  it.each(["unix:sidecar.sock", "https://127.0.0.1:8787", "http://example.com:8787", "http://127.0.0.2:8787", "http://user:pw@127.0.0.1:1", "http://127.0.0.1:1/path", "ftp://127.0.0.1", "127.0.0.1:8787", ""])(
    "refuses %j",
    (address) => {
      expect(() => parseSidecarAddress(address)).toThrow(SidecarClientError);
    },
  );
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

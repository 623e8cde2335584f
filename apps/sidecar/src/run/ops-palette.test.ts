import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantFor, registry } from "../__fixtures__/grant-kit.js";
import { authorized, testApp, type TestApp } from "../__fixtures__/test-app.js";

let harness: TestApp;
beforeAll(async () => {
  harness = await testApp();
});
afterAll(async () => {
  await harness.app.close();
});

async function palette(grant: string) {
  const response = await harness.app.inject({ method: "POST", url: "/v1/ops", headers: authorized, payload: { grant } });
  expect(response.statusCode).toBe(200);
  return response.json() as {
    status: string;
    integration: string | null;
    access?: string;
    ops?: { id: string; access: string; confirm?: string; args: Record<string, unknown> }[];
    error?: { code: string; next_action: string };
  };
}

const githubOps = registry.get("github")?.ops ?? [];

describe("POST /v1/ops", () => {
  it("lists only reads for a read grant, in manifest order", async () => {
    const body = await palette(grantFor({ access: "read" }));
    expect(body).toMatchObject({ status: "ok", integration: "github", access: "read" });
    expect(body.ops?.map((op) => op.id)).toEqual(githubOps.filter((op) => op.access === "read").map((op) => op.id));
    expect(body.ops?.every((op) => op.confirm === undefined)).toBe(true);
  });

  it("lists every op, writes with their confirm template and args, for a write grant", async () => {
    const body = await palette(grantFor({ access: "write" }));
    expect(body.ops?.map((op) => op.id)).toEqual(githubOps.map((op) => op.id));
    const create = body.ops?.find((op) => op.id === "issues.create");
    expect(create).toMatchObject({
      access: "write",
      label: "Open an issue",
      confirm: "Open issue “{title}” in {owner}/{repo}, visible to everyone who can read that repository and notifying its watchers",
    });
    expect(Object.keys(create?.args ?? {})).toEqual(["owner", "repo", "title", "body"]);
  });

  it("marks the ops the manifest marks destructive, and no other", async () => {
    const body = (await palette(grantFor({ access: "write" }))) as { ops?: { id: string; destructive?: boolean }[] };
    expect(body.ops?.filter((op) => op.destructive === true).map((op) => op.id)).toEqual(["issues.close", "pulls.merge"]);
    expect(body.ops?.find((op) => op.id === "issues.create")).not.toHaveProperty("destructive");
  });

  it("respects the allow-list, and still drops writes from a read grant", async () => {
    const body = await palette(grantFor({ access: "read", ops: ["issues.list", "issues.create"] }));
    expect(body.ops?.map((op) => op.id)).toEqual(["issues.list"]);
  });

  it("refuses an expired grant with grant_expired", async () => {
    const body = await palette(grantFor({ now: Math.floor(Date.now() / 1000) - 7200, ttlSeconds: 60 }));
    expect(body).toMatchObject({ status: "error", integration: null, error: { code: "grant_expired" } });
  });

  it("refuses a grant for a changed manifest with grant_invalid", async () => {
    const body = await palette(grantFor({ manifestHash: "f".repeat(64) }));
    expect(body).toMatchObject({ status: "error", integration: "github", error: { code: "grant_invalid" } });
    expect(body.error?.next_action).toMatch(/fresh grant/);
  });

  it("writes no audit line", async () => {
    await palette(grantFor());
    expect(await harness.auditRecords()).toEqual([]);
  });
});

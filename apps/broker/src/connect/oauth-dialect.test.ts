import { describe, expect, it } from "vitest";
import { dialectFetch, dialectOf, normaliseTokenResponse } from "./oauth-dialect.js";
import type { OutboundInit } from "./outbound-fetch.js";

const base = { authorize_url: "https://p.example.com/authorize", token_url: "https://p.example.com/token", scopes: [] };

async function normalised(settings: object, status: number, body: unknown) {
  const response = await normaliseTokenResponse(
    new Response(typeof body === "string" ? body : JSON.stringify(body), { status, headers: { "content-type": "application/json", "content-length": "999" } }),
    dialectOf({ ...base, ...settings }),
  );
  const text = await response.text();
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    length: response.headers.get("content-length"),
    body: text === "" ? undefined : (JSON.parse(text) as Record<string, unknown>),
  };
}

describe("the token answer normalised into RFC 6749 shape", () => {
  it("leaves an RFC 6749 answer as it is (a manifest without dialect fields)", async () => {
    const answer = { access_token: "a", token_type: "Bearer", expires_in: 60, refresh_token: "r", scope: "x y" };
    expect(await normalised({}, 200, answer)).toMatchObject({ status: 200, body: answer, length: null });
    expect(await normalised({}, 400, { error: "invalid_grant" })).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
  });

  it("an HTTP 200 refusal becomes a 400 with the mapped code and nothing else of the body", async () => {
    const github = { token_errors: "error_field", error_codes: { bad_verification_code: "invalid_grant" } };
    expect(await normalised(github, 200, { error: "bad_verification_code", error_description: "expired", error_uri: "https://x" })).toMatchObject({
      status: 400,
      body: { error: "invalid_grant", error_description: "expired" },
    });
    expect(await normalised({ token_errors: "ok_false" }, 200, { ok: false, error: "bad_client_secret" })).toMatchObject({
      status: 400,
      body: { error: "bad_client_secret" },
    });
    expect(await normalised({ token_errors: "ok_false" }, 200, { ok: false })).toMatchObject({ status: 400, body: { error: "invalid_request" } });
    // Without the declaration, a 200 answer with an error is left to oauth4webapi (which refuses it for lacking a token).
    expect(await normalised({}, 200, { error: "bad_verification_code" })).toMatchObject({ status: 200 });
  });

  it("takes the token from token_path when it holds one, else from the top; drops null members; maps bearer words; splits scopes", async () => {
    const slack = { token_path: "authed_user", bearer_token_types: ["user", "bot"], scope_separator: "," };
    const nested = await normalised(slack, 200, {
      ok: true,
      access_token: "xoxb",
      token_type: "bot",
      scope: "a",
      authed_user: { id: "U1", access_token: "xoxp", token_type: "user", scope: "c,d" },
      team: { id: "T" },
    });
    expect(nested.body).toMatchObject({ access_token: "xoxp", token_type: "bearer", scope: "c d", team: { id: "T" }, authed_user: { id: "U1" } });
    const top = await normalised(slack, 200, { ok: true, access_token: "xoxe", token_type: "USER", scope: "c, d", refresh_token: "r" });
    expect(top.body).toMatchObject({ access_token: "xoxe", token_type: "bearer", scope: "c d", refresh_token: "r" });
    const notion = await normalised({}, 200, { access_token: "n", token_type: "bearer", refresh_token: null, duplicated_template_id: null });
    expect(notion.body).toEqual({ access_token: "n", token_type: "bearer", duplicated_template_id: null });
    expect((await normalised({}, 200, { access_token: "l", token_type: "Bearer", scope: ["read", "write"] })).body?.scope).toBe("read write");
    // An unlisted token_type is left for oauth4webapi to refuse.
    expect((await normalised({}, 200, { access_token: "s", token_type: "bot" })).body?.token_type).toBe("bot");
  });

  it("passes anything that is not a JSON object through untouched", async () => {
    const response = await normaliseTokenResponse(
      new Response("<html>down</html>", { status: 503, headers: { "content-type": "text/html" } }),
      dialectOf({ ...base, token_errors: "error_field" }),
    );
    expect([response.status, response.headers.get("content-type"), await response.text()]).toEqual([503, "text/html", "<html>down</html>"]);
  });
});

describe("the token request in the provider's encoding", () => {
  it("re-encodes the form oauth4webapi built as JSON when token_encoding is json, and leaves it alone otherwise", async () => {
    const seen: OutboundInit[] = [];
    const fetch = async (_url: string, init: OutboundInit) => {
      seen.push(init);
      return new Response(JSON.stringify({ access_token: "a", token_type: "bearer" }), { status: 200 });
    };
    const init: OutboundInit = {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded;charset=UTF-8", authorization: "Basic x" },
      body: new URLSearchParams({ grant_type: "authorization_code", code: "c", redirect_uri: "https://b/cb" }),
    };
    await dialectFetch(fetch, dialectOf({ ...base, token_encoding: "json" }))("https://p.example.com/token", init);
    expect(seen[0]?.headers).toEqual({ authorization: "Basic x", "content-type": "application/json" });
    expect(JSON.parse(seen[0]?.body as string)).toEqual({ grant_type: "authorization_code", code: "c", redirect_uri: "https://b/cb" });
    await dialectFetch(fetch, dialectOf(base))("https://p.example.com/token", init);
    expect(seen[1]).toBe(init);
  });
});

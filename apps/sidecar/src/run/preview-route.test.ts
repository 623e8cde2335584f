// A write that declares a preview (Google Docs documents.append_text shows the document's
// title through documents.get). The stand-in answers as Google documents the method:
// https://developers.google.com/docs/api/reference/rest/v1/documents/get (a Document with
// documentId, title, revisionId) and its errors as the AIP-193 `{ error: { code, message, status } }`.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { renderConfirm, signConfirmation } from "@eleven-integrations/grants";
import { grantFor, member, opened, registry } from "../__fixtures__/grant-kit.js";
import { authorized, mockProvider, testApp, type MockProvider, type TestApp } from "../__fixtures__/test-app.js";

const DOCS = "https://docs.googleapis.com";
const DOCUMENT_ID = "195j9eDD3ccgjQRttHhJPymLJUCOUjs-jmwTrekvdjFE";
const ARGS = { document_id: DOCUMENT_ID, text: "Action items: ship it" };
const READ_PATH = `/v1/documents/${DOCUMENT_ID}?fields=documentId,title,revisionId,body(content(startIndex,endIndex,paragraph(elements(textRun(content)),paragraphStyle(namedStyleType))))`;
const WRITE_PATH = `/v1/documents/${DOCUMENT_ID}:batchUpdate`;
const CONFIRM = renderConfirm(registry.operation("google-docs", "documents.append_text")?.confirm as string, ARGS);

let provider: MockProvider;
let harness: TestApp;

beforeEach(async () => {
  provider = mockProvider();
  harness = await testApp({ dispatcher: provider.dispatcher });
});

afterEach(async () => {
  await harness.app.close();
  await provider.agent.close();
});

function grant(): string {
  return grantFor({ integration: "google-docs", access: "write", kind: "oauth" });
}

function documentIs(title: string) {
  provider.agent
    .get(DOCS)
    .intercept({ path: READ_PATH, method: "GET" })
    .reply(
      200,
      { documentId: DOCUMENT_ID, title, revisionId: "ALm37BVTRV7Ojv9j7cMmHD3sw0dVLWNqjh", body: { content: [] } },
      { headers: { "content-type": "application/json; charset=UTF-8" } },
    );
}

function documentFails(status: number, googleStatus: string) {
  provider.agent
    .get(DOCS)
    .intercept({ path: READ_PATH, method: "GET" })
    .reply(
      status,
      { error: { code: status, message: "The caller does not have permission", status: googleStatus } },
      { headers: { "content-type": "application/json; charset=UTF-8" } },
    );
}

function writeSucceeds() {
  provider.agent
    .get(DOCS)
    .intercept({ path: WRITE_PATH, method: "POST" })
    .reply(
      200,
      { documentId: DOCUMENT_ID, replies: [{}], writeControl: { requiredRevisionId: "ALm37BVTRV7Ojv9j7cMmHD3sw0dVLWNqjh" } },
      { headers: { "content-type": "application/json; charset=UTF-8" } },
    );
}

type Answer = Record<string, unknown> & { error?: { code: string; next_action: string; message: string } };

async function run(body: Record<string, unknown>): Promise<Answer> {
  const response = await harness.app.inject({ method: "POST", url: "/v1/run", headers: authorized, payload: body });
  expect(response.statusCode).toBe(200);
  return response.json() as Answer;
}

function tap(sealed: string, line: string): string {
  return signConfirmation({ member, grant: opened(sealed), op: "documents.append_text", args: ARGS, line });
}

const writes = () => provider.sent.filter((request) => request.method === "POST");
const reads = () => provider.sent.filter((request) => request.method === "GET");

describe("POST /v1/run: a preview shows only what the grant could read (third review, finding 9)", () => {
  it("a grant allowed the write and not its read gets the chip without a preview, nothing read, and its tap on the line alone runs once", async () => {
    const sealed = grantFor({ integration: "google-docs", access: "write", kind: "oauth", ops: ["documents.append_text"] });
    const asked = await run({ grant: sealed, op: "documents.append_text", args: ARGS });
    expect(asked).toMatchObject({ status: "confirmation_required", confirm: CONFIRM });
    expect(asked.preview).toBeUndefined();
    expect(reads()).toHaveLength(0);
    writeSucceeds();
    const answer = await run({ grant: sealed, op: "documents.append_text", args: ARGS, confirmation: tap(sealed, CONFIRM) });
    expect(answer).toMatchObject({ status: "ok", http_status: 200 });
    expect(reads()).toHaveLength(0);
    expect(writes()).toHaveLength(1);
  });

  it("a grant whose allow-list names the read shows the preview as before", async () => {
    documentIs("Quarterly plan");
    const sealed = grantFor({ integration: "google-docs", access: "write", kind: "oauth", ops: ["documents.append_text", "documents.get"] });
    const asked = await run({ grant: sealed, op: "documents.append_text", args: ARGS });
    expect(asked).toMatchObject({ status: "confirmation_required", preview: "“Quarterly plan”" });
    expect(reads()).toHaveLength(1);
  });
});

describe("POST /v1/run: a write with a preview", () => {
  it("without a confirmation, reads the target with the grant's credential and answers the chip with the preview", async () => {
    documentIs("Quarterly plan");
    const sealed = grant();
    const answer = await run({ grant: sealed, op: "documents.append_text", args: ARGS });
    expect(answer).toMatchObject({ status: "confirmation_required", confirm: CONFIRM, preview: "“Quarterly plan”" });
    expect(reads()).toHaveLength(1);
    expect(reads()[0]?.headers["authorization"]).toMatch(/^Bearer /);
    expect(writes()).toHaveLength(0);
  });

  it("with the member's tap over confirm + line feed + preview, reads again, finds it unchanged and writes once", async () => {
    documentIs("Quarterly plan");
    const sealed = grant();
    const asked = await run({ grant: sealed, op: "documents.append_text", args: ARGS });
    documentIs("Quarterly plan");
    writeSucceeds();
    const confirmation = tap(sealed, `${asked.confirm as string}\n${asked.preview as string}`);
    const answer = await run({ grant: sealed, op: "documents.append_text", args: ARGS, confirmation });
    expect(answer).toMatchObject({ status: "ok", http_status: 200 });
    expect(reads()).toHaveLength(2);
    expect(writes()).toHaveLength(1);
  });

  it("a target that changed between the tap and the run answers target_changed with the new chip, writes nothing and keeps the tap usable", async () => {
    documentIs("Quarterly plan");
    const sealed = grant();
    const asked = await run({ grant: sealed, op: "documents.append_text", args: ARGS });
    const confirmation = tap(sealed, `${CONFIRM}\n“Quarterly plan”`);

    documentIs("Layoff list (draft)");
    const changed = await run({ grant: sealed, op: "documents.append_text", args: ARGS, confirmation });
    expect(changed).toMatchObject({
      status: "error",
      integration: "google-docs",
      op: "documents.append_text",
      error: { code: "target_changed" },
      confirm: CONFIRM,
      preview: "“Layoff list (draft)”",
      args_digest: asked.args_digest,
      gid: asked.gid,
    });
    expect(changed.details).toEqual(asked.details);
    expect(changed.error?.next_action).toMatch(/new chip/);
    expect(writes()).toHaveLength(0);

    // The target changes back: the same tap was not consumed, so it runs, once.
    documentIs("Quarterly plan");
    writeSucceeds();
    expect(await run({ grant: sealed, op: "documents.append_text", args: ARGS, confirmation })).toMatchObject({ status: "ok" });
    expect(writes()).toHaveLength(1);

    documentIs("Quarterly plan");
    // The same call again answers the write's stored outcome, without reading the preview or writing.
    const ran = writes().length;
    const again = await run({ grant: sealed, op: "documents.append_text", args: ARGS, confirmation });
    expect(again).toMatchObject({ status: "ok", replayed: true });
    expect(writes()).toHaveLength(ran);
  });

  it("the member can sign the new chip target_changed gave, and that runs", async () => {
    documentIs("Quarterly plan");
    const sealed = grant();
    await run({ grant: sealed, op: "documents.append_text", args: ARGS });
    documentIs("Renamed plan");
    const changed = await run({ grant: sealed, op: "documents.append_text", args: ARGS, confirmation: tap(sealed, `${CONFIRM}\n“Quarterly plan”`) });
    expect(changed.error?.code).toBe("target_changed");
    documentIs("Renamed plan");
    writeSucceeds();
    const answer = await run({
      grant: sealed,
      op: "documents.append_text",
      args: ARGS,
      confirmation: tap(sealed, `${changed.confirm as string}\n${changed.preview as string}`),
    });
    expect(answer).toMatchObject({ status: "ok" });
    expect(writes()).toHaveLength(1);
  });

  it.each([
    ["a made-up preview", `${CONFIRM}\n“Harmless notes”`],
    ["no preview at all", CONFIRM],
  ])("a tap over %s is confirmation_invalid: nothing is read again, nothing written", async (_name, line) => {
    documentIs("Quarterly plan");
    const sealed = grant();
    await run({ grant: sealed, op: "documents.append_text", args: ARGS });
    const answer = await run({ grant: sealed, op: "documents.append_text", args: ARGS, confirmation: tap(sealed, line) });
    expect(answer).toMatchObject({ status: "error", error: { code: "confirmation_invalid" } });
    expect(answer.error?.message).toMatch(/preview this sidecar gave/);
    expect(reads()).toHaveLength(1);
    expect(writes()).toHaveLength(0);
  });

  it("a forged preview is refused even when no chip was ever asked for", async () => {
    const sealed = grant();
    const answer = await run({ grant: sealed, op: "documents.append_text", args: ARGS, confirmation: tap(sealed, `${CONFIRM}\n“Harmless notes”`) });
    expect(answer.error?.code).toBe("confirmation_invalid");
    expect(provider.sent).toHaveLength(0);
  });

  it("a provider title full of bidi and zero-width characters is neutralised in the preview", async () => {
    documentIs("Budget\u202Efdp.exe\u200B\u2066 final\u200D");
    const sealed = grant();
    const asked = await run({ grant: sealed, op: "documents.append_text", args: ARGS });
    const preview = asked.preview as string;
    expect(preview).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200B-\u200D]/u);
    // Each hidden character shows as U+FFFD, so the member sees that something was there.
    expect(preview).toBe("“Budget\uFFFDfdp.exe\uFFFD\uFFFD final\uFFFD”");
    // The neutralised line is the one signed and checked again: it runs.
    documentIs("Budget\u202Efdp.exe\u200B\u2066 final\u200D");
    writeSucceeds();
    expect(await run({ grant: sealed, op: "documents.append_text", args: ARGS, confirmation: tap(sealed, `${CONFIRM}\n${preview}`) })).toMatchObject({
      status: "ok",
    });
  });

  it.each([
    [403, "PERMISSION_DENIED", "forbidden"],
    [404, "NOT_FOUND", "not_found"],
  ])("a preview read answering %i answers its own error and writes nothing, before and after the tap", async (status, googleStatus, code) => {
    documentFails(status, googleStatus);
    const sealed = grant();
    const asked = await run({ grant: sealed, op: "documents.append_text", args: ARGS });
    expect(asked).toMatchObject({ status: "error", op: "documents.append_text", error: { code } });
    expect(asked.error?.message).toMatch(/preview read documents\.get failed, nothing was written/);

    documentIs("Quarterly plan");
    await run({ grant: sealed, op: "documents.append_text", args: ARGS });
    documentFails(status, googleStatus);
    const confirmation = tap(sealed, `${CONFIRM}\n“Quarterly plan”`);
    const failed = await run({ grant: sealed, op: "documents.append_text", args: ARGS, confirmation });
    expect(failed).toMatchObject({ status: "error", error: { code } });
    expect(writes()).toHaveLength(0);

    // Not consumed: once the read works again, the tap runs.
    documentIs("Quarterly plan");
    writeSucceeds();
    expect(await run({ grant: sealed, op: "documents.append_text", args: ARGS, confirmation })).toMatchObject({ status: "ok" });
  });

  it("a preview read that times out answers timeout and writes nothing; the tap stays unused", async () => {
    await harness.app.close();
    harness = await testApp({ dispatcher: provider.dispatcher, limits: { timeoutMs: 300, retries: 0 } });
    documentIs("Quarterly plan");
    const sealed = grant();
    await run({ grant: sealed, op: "documents.append_text", args: ARGS });
    provider.agent
      .get(DOCS)
      .intercept({ path: READ_PATH, method: "GET" })
      .reply(200, { documentId: DOCUMENT_ID, title: "Quarterly plan" }, { headers: { "content-type": "application/json" } })
      .delay(2_000);
    const confirmation = tap(sealed, `${CONFIRM}\n“Quarterly plan”`);
    const answer = await run({ grant: sealed, op: "documents.append_text", args: ARGS, confirmation });
    expect(answer).toMatchObject({ status: "error", op: "documents.append_text", error: { code: "timeout" } });
    expect(writes()).toHaveLength(0);
    documentIs("Quarterly plan");
    writeSucceeds();
    expect(await run({ grant: sealed, op: "documents.append_text", args: ARGS, confirmation })).toMatchObject({ status: "ok" });
    expect(writes()).toHaveLength(1);
  });
});

import { renderConfirm } from "@eleven-integrations/grants";
import { loadRegistry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";
import { describe, expect, it } from "vitest";

const registry = loadRegistry(manifestFiles);
const confirmOf = (integration: string, op: string): string => registry.operation(integration, op)?.confirm ?? "";
const file = { name: "Matrices.txt", content_type: "text/plain", base64: Buffer.from("1 0 0\n0 1 0\n0 0 1\n").toString("base64") };

describe("the shipped uploads' chips name the file (name, size, hash prefix), where it goes and who sees it", () => {
  it("Dropbox files.upload", () => {
    expect(renderConfirm(confirmOf("dropbox", "files.upload"), { path: "/Homework/math/Matrices.txt", file })).toBe(
      "Upload Matrices.txt (18 B, sha256 bf284252c00b) to /Homework/math/Matrices.txt in your Dropbox (seen by whoever the folder is shared with; an existing file of that name is kept and the upload refused)",
    );
  });

  it("Google Drive files.upload, a stored file by its hash", () => {
    expect(renderConfirm(confirmOf("google-drive", "files.upload"), { name: "Q3 report.pdf", folder_id: "root", file: { sha256: "a".repeat(64) } })).toBe(
      "Upload stored file (sha256 aaaaaaaaaaaa) to Google Drive as Q3 report.pdf in folder root (seen by whoever the folder is shared with; root is your own My Drive)",
    );
  });
});

describe("Google Sheets values.append_row shows every cell of the row", () => {
  it("lists the cells in order", () => {
    const args = { spreadsheet_id: "1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms", range: "Sheet1!A1:E1", values: ["Door", "$15", "2", "3/15/2016"] };
    expect(renderConfirm(confirmOf("google-sheets", "values.append_row"), args)).toBe(
      "Add the row Door, $15, 2, 3/15/2016 to the table at Sheet1!A1:E1 of Google Sheet 1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms, seen by everyone who can open it",
    );
  });
});

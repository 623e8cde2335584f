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

import { describe, expect, it } from "vitest";
import { bytesBody, multipartBody, type FileBytes } from "./file-body.js";

const file: FileBytes = { name: "Matrices.txt", content_type: "text/plain", bytes: Buffer.from("1 2\n3 4\n") };

function boundaryOf(contentType: string): string {
  return /boundary=([^;]+)$/.exec(contentType)?.[1] as string;
}

describe("file bodies", () => {
  it("bytes: the file's bytes are the body, its type the Content-Type", () => {
    expect(bytesBody(file)).toEqual({ body: file.bytes, contentType: "text/plain" });
  });

  it("multipart/related (Google Drive's multipart upload): JSON metadata first, then the file", () => {
    const { body, contentType } = multipartBody("related", file, { metadata: { name: "Matrices.txt" } });
    const boundary = boundaryOf(contentType);
    expect(contentType).toMatch(/^multipart\/related; boundary=eleven-[0-9a-f]{48}$/);
    expect(body.toString("utf8")).toBe(
      `--${boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n{"name":"Matrices.txt"}\r\n` +
        `--${boundary}\r\nContent-Type: text/plain\r\n\r\n1 2\n3 4\n\r\n--${boundary}--\r\n`,
    );
  });

  it("multipart/form-data: the fields, then the file with its name", () => {
    const { body, contentType } = multipartBody("form-data", file, { fields: [["channels", "C123"]], fileField: "file" });
    const boundary = boundaryOf(contentType);
    expect(body.toString("utf8")).toBe(
      `--${boundary}\r\nContent-Disposition: form-data; name="channels"\r\n\r\nC123\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="Matrices.txt"\r\nContent-Type: text/plain\r\n\r\n1 2\n3 4\n\r\n--${boundary}--\r\n`,
    );
  });

  it("boundaries are random per body", () => {
    expect(boundaryOf(multipartBody("related", file).contentType)).not.toBe(boundaryOf(multipartBody("related", file).contentType));
  });

  it("a file name cannot break out of its header: CR, LF and quotes neutralised, non-ASCII as filename*", () => {
    const evil = { ...file, name: 'a"\r\nContent-Type: text/html\r\n\r\nx.txt' };
    const text = multipartBody("form-data", evil).body.toString("utf8");
    expect(text).toContain('filename="a\\"__Content-Type: text/html____x.txt"');
    expect(text.split("\r\n").filter((line) => line.startsWith("Content-Type:"))).toEqual(["Content-Type: text/plain"]);
    expect(multipartBody("form-data", { ...file, name: "résumé.pdf" }).body.toString("utf8")).toContain(
      `filename="r_sum_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`,
    );
  });

  it("a file that holds a would-be boundary never ends its part early: the boundary is none of its bytes", () => {
    for (let round = 0; round < 20; round += 1) {
      const { body, contentType } = multipartBody("related", { ...file, bytes: Buffer.from("--eleven-\r\n--eleven---\r\n") });
      const boundary = boundaryOf(contentType);
      expect(body.toString("utf8").split(`--${boundary}`)).toHaveLength(4);
    }
  });
});

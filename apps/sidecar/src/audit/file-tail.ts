import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

/** The last bytes of a file (at most `maxBytes`) and whether the file holds more before them. */
export interface FileTail {
  bytes: Buffer;
  /** True when the file is longer than `bytes`. */
  cut: boolean;
}

/** Reads the last `maxBytes` of `path`, never through a symlink (O_NOFOLLOW); undefined when it does not exist. */
export function readFileTail(path: string, maxBytes: number): FileTail | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, maxBytes);
    const tail = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const got = readSync(fd, tail, read, length - read, size - length + read);
      if (got === 0) break;
      read += got;
    }
    return { bytes: tail.subarray(0, read), cut: size > length };
  } finally {
    closeSync(fd);
  }
}

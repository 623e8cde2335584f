import { markedError } from "@eleven-integrations/schema";

/** Why a sidecar refuses to start. */
export type SidecarStartErrorCode =
  /** A secret file that group or others can read or write. */
  | "insecure_file"
  /** A file owned by another user. */
  | "wrong_owner"
  /** A path that is not a regular file. */
  | "not_a_file"
  /** A file whose content is not what it should hold. */
  | "invalid_file"
  /** A home folder that group or others can write to, or that another user owns. */
  | "insecure_home"
  /** A bad setting (port, home directory). */
  | "invalid_setting"
  /** The socket path is already served by another running process. */
  | "in_use";

/** Thrown by `startSidecar` (and reported by the `eleven-sidecar` command) before it listens. Its message names the file, never its content. */
export class SidecarStartError extends markedError("SidecarStartError") {
  readonly code: SidecarStartErrorCode;

  constructor(code: SidecarStartErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

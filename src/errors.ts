// The failures a user can hit, each with a string code and the exit code the README documents.
// The entry point turns them into one line on stderr; anything else is an internal error.

/** Exit codes, as documented in the README. */
export const EXIT = {
  ok: 0,
  agentFailed: 1,
  usage: 2,
  notInstalled: 3,
  auth: 4,
  rateLimited: 5,
  timeout: 124,
  /** SIGHUP: the terminal scv ran in closed. */
  hangup: 129,
  interrupted: 130,
  /** stdout's reader went away (EPIPE) while a turn ran: the turn stopped, as on SIGPIPE. */
  outputClosed: 141,
  terminated: 143,
} as const;

/** The abort reason when stdout was closed: a turn stops as a pipe writer does on SIGPIPE. */
export const OUTPUT_CLOSED = "SIGPIPE";
/** The abort reason when scv's terminal closed, by SIGHUP or by EIO on stdout: as a shell's jobs end. */
export const HANGUP = "SIGHUP";

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export type ErrorCode =
  | "USAGE"
  | "UNKNOWN_AGENT"
  | "UNKNOWN_CONVERSATION"
  | "BAD_CONFIG"
  | "CONVERSATION_BUSY"
  | "RESUME_UNSUPPORTED"
  | "AGENT_NOT_INSTALLED"
  | "NOT_SIGNED_IN"
  | "AUTH_FAILED"
  | "RATE_LIMITED"
  | "AGENT_FAILED"
  | "TURN_TIMEOUT"
  | "INTERRUPTED"
  | "TERMINATED"
  | "HANGUP"
  | "OUTPUT_CLOSED"
  | "IO";

const EXIT_BY_CODE: Record<ErrorCode, ExitCode> = {
  USAGE: EXIT.usage,
  UNKNOWN_AGENT: EXIT.usage,
  UNKNOWN_CONVERSATION: EXIT.usage,
  BAD_CONFIG: EXIT.usage,
  CONVERSATION_BUSY: EXIT.usage,
  RESUME_UNSUPPORTED: EXIT.usage,
  AGENT_NOT_INSTALLED: EXIT.notInstalled,
  NOT_SIGNED_IN: EXIT.auth,
  AUTH_FAILED: EXIT.auth,
  RATE_LIMITED: EXIT.rateLimited,
  AGENT_FAILED: EXIT.agentFailed,
  TURN_TIMEOUT: EXIT.timeout,
  INTERRUPTED: EXIT.interrupted,
  TERMINATED: EXIT.terminated,
  HANGUP: EXIT.hangup,
  OUTPUT_CLOSED: EXIT.outputClosed,
  IO: EXIT.agentFailed,
};

/** A failure with a message fit for the user: what happened, and what to do. */
export class ScvError extends Error {
  readonly code: ErrorCode;
  readonly exitCode: ExitCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ScvError";
    this.code = code;
    this.exitCode = EXIT_BY_CODE[code];
  }
}

export function usageError(message: string): ScvError {
  return new ScvError("USAGE", message);
}

/** What to do about a failed file operation, by its errno code. */
const FILE_HINTS: Readonly<Record<string, string>> = {
  EACCES: "check its owner and permissions, or set SCV_HOME to a folder you own",
  EPERM: "check its owner and permissions, or set SCV_HOME to a folder you own",
  ENOTDIR: "a file stands where scv needs a folder: move it, or set SCV_HOME elsewhere",
  EEXIST: "a file stands where scv needs a folder: move it, or set SCV_HOME elsewhere",
  EISDIR: "a folder stands where scv expects a file: remove it",
  ENOSPC: "free some disk space",
  EFBIG: "the file size limit (ulimit -f) is too low: raise it",
  EDQUOT: "the disk quota is used up: free some space",
  EROFS: "the file system is read-only: set SCV_HOME to a writable folder",
  ENAMETOOLONG: "the path is too long: set SCV_HOME to a shorter one",
  ELOOP: "too many symbolic links: check the path",
};

/** A failed file operation (Node's errno error with a path) as one line that names the path and says
 * what to do; undefined for anything else. */
function fileErrorLine(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, path, syscall } = error as NodeJS.ErrnoException;
  if (code === undefined || path === undefined) return undefined;
  return `cannot ${syscall ?? "use"} ${path} (${code}) — ${fileHint(code)}`;
}

/** What to do after a file operation failed with errno `code`. */
export function fileHint(code: string | undefined): string {
  return (code === undefined ? undefined : FILE_HINTS[code]) ?? "check the path and try again";
}

/** `error` as an `IO` ScvError when it is a failed file operation; otherwise `error` itself. */
export function asFileError(error: unknown): unknown {
  const line = fileErrorLine(error);
  return line === undefined ? error : new ScvError("IO", line, { cause: error });
}

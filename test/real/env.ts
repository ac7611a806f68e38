// The isolated environment a real CLI runs in: an empty env with a fresh HOME plus vendor opt-outs (the
// lab's cleanenv), temporary agent homes with a git-initialised work folder, and the installed bin dir.
import { spawn, spawnSync } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Telemetry / update / feedback opt-outs, each found in the shipped code of the CLI it targets. */
export const OPT_OUTS: Readonly<Record<string, string>> = {
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  DISABLE_AUTOUPDATER: "1",
  DISABLE_TELEMETRY: "1",
  DISABLE_ERROR_REPORTING: "1",
  DISABLE_BUG_COMMAND: "1",
  CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY: "1",
  CLAUDE_CODE_DISABLE_TERMINAL_TITLE: "1",
  GEMINI_TELEMETRY_ENABLED: "false",
  QWEN_TELEMETRY_ENABLED: "false",
  NO_UPDATE_NOTIFIER: "1",
  NPM_CONFIG_UPDATE_NOTIFIER: "false",
  OPENCODE_DISABLE_AUTOUPDATE: "1",
  OPENCODE_DISABLE_SHARE: "1",
  OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
  OPENCODE_DISABLE_MODELS_FETCH: "1",
  OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
  PI_SKIP_VERSION_CHECK: "1",
  PI_OFFLINE: "1",
  COPILOT_AUTO_UPDATE: "false",
  DO_NOT_TRACK: "1",
};

/**
 * A complete environment for one CLI process: nothing inherited from the test runner except what is
 * named here. `binDir` goes first on PATH, then node's own folder, /usr/bin, /bin.
 */
export function baseEnv(
  home: string,
  binDir: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    PATH: [binDir, dirname(process.execPath), "/usr/bin", "/bin"].join(":"),
    HOME: home,
    LANG: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
    USER: "scv-real",
    LOGNAME: "scv-real",
    SHELL: "/bin/bash",
    TMPDIR: join(home, "tmp"),
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    ...OPT_OUTS,
    ...extra,
  };
}

export interface TempHome extends AsyncDisposable {
  /** The fresh HOME (with `tmp/` for TMPDIR). */
  home: string;
  /** `<home>/work`, its own git repository, so the CLIs do not walk up into another checkout. */
  cwd: string;
}

/** A fresh HOME with a git-initialised work folder; removed on dispose unless SCV_REAL_KEEP is set. */
export async function tempHome(prefix = "scv-real-"): Promise<TempHome> {
  const home = await mkdtemp(join(tmpdir(), prefix));
  const cwd = join(home, "work");
  await mkdir(join(home, "tmp"), { recursive: true });
  await mkdir(cwd, { recursive: true });
  const git = spawnSync("git", ["init", "-q", cwd], { stdio: "ignore" });
  if (git.status !== 0) throw new Error(`git init ${cwd} failed`);
  return {
    home,
    cwd,
    [Symbol.asyncDispose]: async () => {
      if (!process.env.SCV_REAL_KEEP) await rm(home, { recursive: true, force: true });
    },
  };
}

/**
 * The bin directory of the pinned CLIs: $SCV_REAL_BIN, else the finished install of
 * scripts/install-real-clis.mjs (undefined when nothing is installed; run that script first).
 */
export function realBinDir(): string | undefined {
  if (process.env.SCV_REAL_BIN) return process.env.SCV_REAL_BIN;
  const result = spawnSync(process.execPath, [join(REPO, "scripts", "install-real-clis.mjs"), "--bin-dir"], {
    encoding: "utf8",
  });
  if (result.status !== 0) return undefined;
  return result.stdout.trim().split("\n").at(-1);
}

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  durationMs: number;
}

/**
 * Runs one CLI process to completion: stdin /dev/null unless `input` is given (then piped and closed),
 * its own process group, killed (SIGTERM, then SIGKILL after 3 s) when `timeoutMs` passes.
 */
export function runCli(
  argv: readonly string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs?: number; input?: string },
): Promise<CliRun> {
  const [command, ...args] = argv;
  if (!command) throw new Error("runCli: empty argv");
  const started = Date.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.stdin?.end(options.input);
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid) process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup("SIGTERM");
      setTimeout(() => killGroup("SIGKILL"), 3000).unref();
    }, options.timeoutMs ?? 120_000);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, timedOut, stdout, stderr, durationMs: Date.now() - started });
    });
  });
}

// `npm run real:update` (`node scripts/install-real-clis.mjs --update`): moves every pin of
// scripts/real-clis.json to the newest published version that installs here (each candidate tried
// alone in a scratch folder), installs the new set in its own cache folder beside the pinned one
// (which stays as it is), reruns the contract suite against it, and writes what changed to a report:
// each pin's move (and the newer versions that did not install, with why), the flags its help texts
// gained or lost, and the contract cases that failed (their messages name an argument a CLI rejects
// or an event shape that moved). `--agents cline,kilo` moves only those rows' pins (and the ACP
// adapters that drive them), installs only them and runs only the contract cases naming them, so a
// developer can check one CLI; `--keep-pins` leaves scripts/real-clis.json as it is (a report only).
// The table's `verified` versions stay as they are: versions.test.ts names each row to re-verify.
// Only Node built-ins and npm are used.
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  ALLOW_SCRIPTS,
  askVersion,
  binDir,
  ensureInstalled,
  installDir,
  MARKER,
  npmInstall,
  PINS_FILE,
  pinAgent,
  platformPackage,
  readMarker,
} from "./install-real-clis.mjs";

const REPO = dirname(dirname(fileURLToPath(import.meta.url)));
/** Newer versions tried per package before giving up on it (each is a full install). */
const MAX_TRIES = 4;

function npmView(pkg) {
  const result = spawnSync("npm", ["view", pkg, "versions", "time", "dist-tags", "--json"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 120_000,
  });
  if (result.status !== 0) throw new Error(`npm view ${pkg}: ${result.stderr.trim().split("\n")[0]}`);
  return JSON.parse(result.stdout);
}

/** The versions published after `current` up to the `latest` tag, newest first. */
export function newerVersions(view, current) {
  const time = view.time ?? {};
  const latest = view["dist-tags"]?.latest;
  const from = Date.parse(time[current] ?? "") || 0;
  const until = Date.parse(time[latest] ?? "") || Number.POSITIVE_INFINITY;
  return (view.versions ?? [])
    .filter((version) => {
      const at = Date.parse(time[version] ?? "");
      return at > from && at <= until;
    })
    .sort((a, b) => Date.parse(time[b]) - Date.parse(time[a]));
}

/** The platform package's version for a CLI version: the same where it was published, else its latest. */
function platformVersion(pin, version) {
  const pkg = platformPackage(pin);
  if (pkg === undefined) return undefined;
  const view = npmView(pkg);
  return view.versions?.includes(version) ? version : view["dist-tags"]?.latest;
}

/** Installs `pin` at `candidate` alone in a scratch folder and asks its version; the error, or null. */
function tryInstall(pin, candidate) {
  const dir = mkdtempSync(join(tmpdir(), "scv-real-update-"));
  try {
    const dependencies = { [pin.pkg]: candidate.version };
    const platform = platformPackage(pin);
    if (platform !== undefined) dependencies[platform] = candidate.platform.version;
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({ name: "scv-real-update", private: true, dependencies, allowScripts: ALLOW_SCRIPTS }),
    );
    try {
      npmInstall(dir);
    } catch (error) {
      return `npm install failed: ${error instanceof Error ? error.message : String(error)}`;
    }
    const answer = askVersion(dir, { ...pin, ...candidate }, dir);
    return answer.ok ? null : `--version: ${answer.out.split("\n")[0] ?? ""}`.slice(0, 200);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The newest version of `pin` that installs and answers, with the ones tried before it. */
function newestThatInstalls(pin, log) {
  const tried = [];
  for (const version of newerVersions(npmView(pin.pkg), pin.version).slice(0, MAX_TRIES)) {
    const platform = platformVersion(pin, version);
    const candidate = {
      version,
      ...(platform === undefined ? {} : { platform: { ...pin.platform, version: platform } }),
      // A separately published platform binary answers its own version.
      ...(pin.reports === undefined ? {} : { reports: platform ?? version }),
    };
    log(`${pin.pkg}@${version}: trying`);
    const error = tryInstall(pin, candidate);
    if (error === null) return { candidate, tried };
    log(`${pin.pkg}@${version}: ${error}`);
    tried.push({ version, error });
  }
  return { candidate: undefined, tried };
}

/** The flags (`-x`, `--name`) a help text mentions. */
export function helpFlags(text) {
  return new Set(text.match(/(?<![\w-])--?[a-zA-Z][\w-]*/g) ?? []);
}

/** Flags added and removed between two help texts. */
export function flagChanges(before, after) {
  const old = helpFlags(before);
  const now = helpFlags(after);
  return {
    added: [...now].filter((flag) => !old.has(flag)).sort(),
    removed: [...old].filter((flag) => !now.has(flag)).sort(),
  };
}

function readHelp(dir, cli) {
  const file = join(dir, "help", `${cli}.txt`);
  return existsSync(file) ? readFileSync(file, "utf8") : undefined;
}

/** The agents a pin belongs to: its row, and for an ACP adapter the CLI it drives. */
function pinNames(pin) {
  return [pin.cli, pinAgent(pin), ...(pin.drives === undefined ? [] : [pin.drives])];
}

/** The pins `--agents` names (every pin when it names none); throws naming an agent no pin has. */
export function selectPins(pins, agents) {
  if (agents === undefined || agents.length === 0) return pins;
  const known = new Set([...pins.clis, ...pins.adapters].flatMap(pinNames));
  const unknown = agents.filter((agent) => !known.has(agent));
  if (unknown.length > 0)
    throw new Error(`no pin for ${unknown.join(", ")} (pinned: ${[...known].sort().join(", ")})`);
  const wanted = (pin) => pinNames(pin).some((name) => agents.includes(name));
  return { clis: pins.clis.filter(wanted), adapters: pins.adapters.filter(wanted) };
}

/** Whether a source text names one of `agents` as a word (`cline`, not `clineX` or `my-cline`). */
function namesAgent(text, agents) {
  return agents.some((agent) => new RegExp(`(?<![\\w-])${agent}(?![\\w-])`).test(text));
}

/**
 * The vitest arguments of the contract suite narrowed to `agents`: the test files that name one of
 * them (or take their CLIs from profiles.ts, which does), and `-t` keeping the cases whose names do.
 * `files` maps each test file (relative to the repository) to its text. No agents: the whole suite.
 */
export function suiteSelection(files, agents) {
  if (agents === undefined || agents.length === 0) return [];
  const profiles = files["test/real/profiles.ts"] ?? "";
  const chosen = Object.entries(files)
    .filter(([name]) => name.endsWith(".test.ts"))
    .filter(
      ([, text]) =>
        namesAgent(text, agents) || (text.includes("./profiles.js") && namesAgent(profiles, agents)),
    )
    .map(([name]) => name)
    .sort();
  const escaped = agents.map((agent) => agent.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return [...chosen, "-t", `(^|[^\\w-])(${escaped.join("|")})([^\\w-]|$)`];
}

/** The contract suite's files and their texts (test/real/, with profiles.ts). */
function suiteFiles() {
  const dir = join(REPO, "test", "real");
  const files = {};
  for (const name of readdirSync(dir))
    if (name.endsWith(".ts")) files[`test/real/${name}`] = readFileSync(join(dir, name), "utf8");
  return files;
}

/** The contract suite on the new install (Node 22, as `npm run test:real`); its failed cases. */
function runSuite(bin, log, agents) {
  const narrowed = suiteSelection(suiteFiles(), agents);
  if (agents !== undefined && narrowed[0] === "-t") return { ran: false, failures: [] };
  const out = join(tmpdir(), `scv-real-update-${process.pid}.json`);
  log("running the contract suite (npm run build first)");
  spawnSync("npm", ["run", "build"], { cwd: REPO, stdio: ["ignore", 2, 2] });
  spawnSync(
    process.execPath,
    [
      join(REPO, "scripts", "install-node.mjs"),
      "22",
      "--",
      "npx",
      "vitest",
      "run",
      "--config",
      "vitest.real.config.ts",
      "--reporter=json",
      `--outputFile=${out}`,
      ...narrowed,
    ],
    { cwd: REPO, stdio: ["ignore", 2, 2], env: { ...process.env, SCV_REAL_BIN: bin } },
  );
  if (!existsSync(out)) return { ran: false, failures: [] };
  const result = JSON.parse(readFileSync(out, "utf8"));
  rmSync(out, { force: true });
  const failures = [];
  for (const file of result.testResults ?? [])
    for (const test of file.assertionResults ?? [])
      if (test.status === "failed")
        failures.push({
          file: file.name.replace(`${REPO}/`, ""),
          test: test.fullName,
          message: String(test.failureMessages?.[0] ?? "")
            .split("\n")
            .slice(0, 6)
            .join("\n"),
        });
  return {
    ran: true,
    passed: result.numPassedTests,
    failed: result.numFailedTests,
    skipped: (result.numPendingTests ?? 0) + (result.numTodoTests ?? 0),
    failures,
  };
}

/** The report's Markdown: the moves, the flags, the suite's outcome. `at` is the run's ISO time. */
export function reportText({ moves, flags, suite, agents, at = new Date().toISOString() }) {
  const only = agents === undefined || agents.length === 0 ? "" : ` (only ${agents.join(", ")})`;
  const lines = ["# Pins moved by `npm run real:update`", "", `Run ${at}${only}.`, ""];
  lines.push("| package | was | now | newer versions that did not install |", "| --- | --- | --- | --- |");
  for (const move of moves)
    lines.push(
      `| \`${move.pkg}\` | ${move.from} | ${move.to ?? move.from} | ${move.tried.map((t) => `${t.version}: ${t.error}`).join("; ") || "—"} |`,
    );
  lines.push("", "## Flags", "");
  const changed = flags.filter((flag) => flag.added.length + flag.removed.length > 0);
  if (changed.length === 0) lines.push("No help text gained or lost a flag.");
  for (const flag of changed)
    lines.push(
      `- \`${flag.cli}\`: added ${flag.added.map((f) => `\`${f}\``).join(" ") || "—"}; removed ${flag.removed.map((f) => `\`${f}\``).join(" ") || "—"}`,
    );
  lines.push("", "## Contract suite", "");
  if (!suite.ran) lines.push("Not run.");
  else {
    const skipped = suite.skipped > 0 ? `, ${suite.skipped} skipped` : "";
    lines.push(`${suite.passed} passed, ${suite.failed} failed${skipped}.`, "");
    for (const failure of suite.failures)
      lines.push(
        `- ${failure.file}: ${failure.test}`,
        "",
        "  ```",
        ...failure.message.split("\n").map((l) => `  ${l}`),
        "  ```",
      );
  }
  lines.push(
    "",
    "A row is verified against a new version once its cases pass: then set its `verified` (and its",
    "ACP server's, endpoint's, takeover's) to the pin and run `npm run docs` (versions.test.ts checks).",
  );
  return `${lines.join("\n")}\n`;
}

/** The marker's pins with `moved` in place of the same executables' (the pinned order kept). */
export function mergePins(pinned, moved) {
  const byCli = new Map(moved.map((pin) => [pin.cli, pin]));
  const kept = pinned.map((pin) => byCli.get(pin.cli) ?? pin);
  return [...kept, ...moved.filter((pin) => !pinned.some((old) => old.cli === pin.cli))];
}

/**
 * A narrowed install (`--agents`) holds only the moved pins: the suite's other CLIs (a review case's
 * second reviewer, an adapter's CLI) come from the pinned install, linked into its bin folder, and its
 * marker lists them at their pinned versions. Saves installing 4 GB to check one CLI.
 */
function besidePinned(newDir, oldDir) {
  const newBin = binDir(newDir);
  const oldBin = binDir(oldDir);
  for (const name of readdirSync(oldBin))
    if (!existsSync(join(newBin, name))) symlinkSync(realpathSync(join(oldBin, name)), join(newBin, name));
  const marker = JSON.parse(readFileSync(join(newDir, MARKER), "utf8"));
  const pinned = JSON.parse(readFileSync(join(oldDir, MARKER), "utf8"));
  marker.pins = mergePins(pinned.pins, marker.pins);
  marker.adapters = mergePins(pinned.adapters ?? [], marker.adapters ?? []);
  marker.versions = { ...pinned.versions, ...marker.versions };
  writeFileSync(join(newDir, MARKER), `${JSON.stringify(marker, null, 2)}\n`);
}

/** Pins without their comments, as the install script takes them. */
function plainAll(pins) {
  const plain = (list) => list.map(({ $comment: _, ...pin }) => pin);
  return { clis: plain(pins.clis), adapters: plain(pins.adapters) };
}

/** `--update`: returns the exit code (0 when the suite passed or was not run). `agents` narrows it to
 * those rows' pins and contract cases; `keepPins` leaves scripts/real-clis.json unchanged. */
export function updatePins({ report, suite: withSuite = true, agents, keepPins = false, log }) {
  const raw = JSON.parse(readFileSync(PINS_FILE, "utf8"));
  const chosen = selectPins(raw, agents);
  const oldDir = installDir();
  const hadOld = readMarker(oldDir) !== undefined;
  const moves = [];
  for (const pin of [...chosen.clis, ...chosen.adapters]) {
    const { candidate, tried } = newestThatInstalls(pin, log);
    moves.push({ pkg: pin.pkg, from: pin.version, to: candidate?.version, tried });
    if (candidate !== undefined) Object.assign(pin, candidate);
  }
  const moved = moves.some((move) => move.to !== undefined);
  const pins = plainAll(chosen);
  const flags = [];
  let suite = { ran: false, failures: [] };
  let newDir;
  if (moved) {
    // Its own cache folder (named by the pins' hash): the pinned install stays as it is.
    const narrowed = pins.clis.length + pins.adapters.length < raw.clis.length + raw.adapters.length;
    // Narrowed without a pinned install to borrow from: every pin, the chosen ones moved.
    const bin = ensureInstalled({ pins: narrowed && !hadOld ? plainAll(raw) : pins });
    newDir = dirname(dirname(bin));
    if (narrowed && hadOld) besidePinned(newDir, oldDir);
    if (hadOld)
      for (const pin of [...pins.clis, ...pins.adapters]) {
        const before = readHelp(oldDir, pin.cli);
        const after = readHelp(newDir, pin.cli);
        if (before !== undefined && after !== undefined)
          flags.push({ cli: pin.cli, ...flagChanges(before, after) });
      }
    // Narrowed, only the cases of the rows that moved: the others' CLIs are the pinned ones.
    const movedNames = [...chosen.clis, ...chosen.adapters]
      .filter((pin) => moves.some((move) => move.pkg === pin.pkg && move.to !== undefined))
      .map(pinAgent);
    if (withSuite) suite = runSuite(binDir(newDir), log, narrowed ? movedNames : undefined);
    if (!keepPins) writeFileSync(PINS_FILE, `${JSON.stringify(raw, null, 2)}\n`);
  } else log("no pin has a newer version that installs");
  const file = report ?? join(newDir ?? oldDir, "update-report.md");
  writeFileSync(file, reportText({ moves, flags, suite, agents }));
  log(`report: ${file}`);
  process.stdout.write(`${file}\n`);
  return suite.ran && suite.failed > 0 ? 1 : 0;
}

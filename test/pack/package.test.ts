// The published package's shape, checked on the tree: what `npm pack` would put in the tarball
// holds everything the launcher needs, package.json has no install scripts and no dependencies,
// and the notices cover what the bundle carries. The pack check (scripts/ci-pack.ts, in .ci/run)
// runs the same checks on the real tarball and then installs and runs it.

import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  CARRIED_INSIDE,
  closure,
  importedPackages,
  type Lockfile,
  noticedPackages,
  packageName,
} from "../../scripts/notices.js";
import { manifestProblems, packedFileProblems } from "../../scripts/package-check.js";
import { ensureBuilt } from "../helpers/scv.js";

const ROOT = join(import.meta.dirname, "..", "..");
const MANIFEST = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as Record<string, unknown>;
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");

function built(): string[] {
  return readdirSync(join(ROOT, "dist"), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(ROOT.length + 1));
}

/** The files `npm pack` would pack from the tree as it is (no build: the tests' build is there). */
function packList(): string[] {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts", "--loglevel=error"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  const [pack] = JSON.parse(out) as [{ files: { path: string }[] }];
  return pack.files.map((file) => file.path);
}

describe("the packed files", () => {
  let packed: string[];
  beforeAll(async () => {
    await ensureBuilt();
    packed = packList();
  }, 120_000);

  it("are the launcher, the bundle beside it, what it requires, and nothing from the tree", () => {
    expect(packedFileProblems({ packed, built: built(), read })).toEqual([]);
    expect(packed).toEqual(expect.arrayContaining(["dist/scv.js", "dist/app.js", "dist/package.json"]));
    expect(packed.filter((path) => !path.startsWith("dist/")).sort()).toEqual([
      "LICENSE",
      "README.md",
      "package.json",
    ]);
  });

  it("a file left out, a library the bundle requires but the package lacks, or a tree file is named", () => {
    const without = (file: string) => packed.filter((path) => path !== file);
    expect(packedFileProblems({ packed: without("dist/vendor/p-queue.js"), built: built(), read })).toEqual(
      expect.arrayContaining([
        "dist/vendor/p-queue.js is not in the package",
        "dist/app.js requires './vendor/p-queue.js' (dist/vendor/p-queue.js), not in the package",
      ]),
    );
    expect(packedFileProblems({ packed: without("dist/package.json"), built: built(), read })).toContain(
      "dist/package.json is not in the package",
    );
    expect(packedFileProblems({ packed: without("LICENSE"), built: [], read })).toEqual([
      "LICENSE is not in the package",
    ]);
    expect(packedFileProblems({ packed: [...packed, "src/cli/bin.ts"], built: [], read })).toEqual([
      "src/cli/bin.ts is in the package, which holds only dist/, package.json, README.md, LICENSE",
    ]);
    const bare = (path: string) =>
      path === "dist/scv.js"
        ? // The last two are source text a library keeps in strings, never called.
          'require("zod");require("node:fs");e.code=\'require("ajv/dist/runtime/equal").default\';f=`require("ajv-formats")`'
        : read(path);
    expect(packedFileProblems({ packed, built: [], read: bare })).toEqual([
      "dist/scv.js requires 'zod', which the package neither carries nor declares",
    ]);
  });
});

describe("package.json", () => {
  it("is scv-cli with its one bin, engines, no install script and nothing else to install", () => {
    expect(manifestProblems(MANIFEST)).toEqual([]);
  });

  it("names an install script, a dependency, a second bin or a missing engines", () => {
    const scripts = MANIFEST.scripts as Record<string, string>;
    expect(
      manifestProblems({ ...MANIFEST, scripts: { ...scripts, prepare: "node scripts/build.mjs" } }),
    ).toEqual(["scripts.prepare would run on install"]);
    expect(manifestProblems({ ...MANIFEST, scripts: { ...scripts, postinstall: "node x" } })).toEqual([
      "scripts.postinstall would run on install",
    ]);
    expect(manifestProblems({ ...MANIFEST, dependencies: { zod: "^4" } })).toEqual([
      "dependencies is declared: everything scv runs is bundled into dist/ (a devDependency)",
    ]);
    expect(manifestProblems({ ...MANIFEST, bin: { scv: "dist/scv.js", scvd: "dist/scv.js" } })[0]).toMatch(
      /npx scv-cli runs a package's only bin/,
    );
    expect(manifestProblems({ ...MANIFEST, name: "scv", engines: undefined })).toEqual([
      "name is scv, not scv-cli",
      "engines.node is not declared",
    ]);
  });
});

describe("the notices", () => {
  it("cover every library src/ imports at run time, the vendored ones among them", () => {
    const imported = importedPackages(join(ROOT, "src"));
    // Each vendored file is named after its library, the MCP server and ACP SDKs' by what they hold.
    const SDKS: Record<string, string> = {
      "mcp-server": "@modelcontextprotocol/server",
      "acp-sdk": "@agentclientprotocol/sdk",
    };
    const vendored = readdirSync(join(ROOT, "dist", "vendor"))
      .map((file) => file.replace(/\.js$/, ""))
      .map((name) => SDKS[name] ?? name);
    expect(imported).toEqual(expect.arrayContaining([...vendored, "zod", "smol-toml"]));
    expect(imported.every((name) => !name.startsWith("node:") && name !== "vitest")).toBe(true);
    const lock = JSON.parse(read("package-lock.json")) as Lockfile;
    // p-queue's own dependencies are in the bundle too.
    expect(closure(lock, imported)).toEqual(
      expect.arrayContaining([
        "node_modules/p-queue",
        "node_modules/eventemitter3",
        "node_modules/p-timeout",
      ]),
    );
  });

  it("cover what a library carries inside its own files, at the versions it carries", () => {
    const lock = JSON.parse(read("package-lock.json")) as Lockfile;
    const noticed = closure(lock, noticedPackages(join(ROOT, "src")));
    for (const [carrier, carried] of Object.entries(CARRIED_INSIDE)) {
      // The carrier's build names each package it bundled by its folder: node_modules/.pnpm/ajv@8.18.0/.
      const dist = join(ROOT, "node_modules", carrier, "dist");
      const text = readdirSync(dist)
        .filter((file) => file.endsWith(".cjs"))
        .map((file) => readFileSync(join(dist, file), "utf8"))
        .join("\n");
      const bundled = new Map(
        [...text.matchAll(/node_modules\/\.pnpm\/((?:@[^/+]+\+)?[^/@]+)@(\d[^/_]*)/g)].map(
          (match) => [(match[1] ?? "").replace("+", "/"), match[2]] as const,
        ),
      );
      for (const location of closure(lock, carried)) {
        const name = location.slice("node_modules/".length);
        expect(noticed, name).toContain(location);
        if (bundled.has(name)) expect(lock.packages[location]?.version, name).toBe(bundled.get(name));
      }
      expect([...bundled.keys()]).toEqual(expect.arrayContaining([...carried]));
    }
  });

  it("resolve a dependency from the nearest node_modules, skip an absent optional one, and fail on a missing one", () => {
    const lock: Lockfile = {
      packages: {
        "node_modules/a": { dependencies: { b: "1", c: "1" }, optionalDependencies: { gone: "1" } },
        "node_modules/a/node_modules/b": { dependencies: { c: "1" } },
        "node_modules/b": {},
        "node_modules/c": {},
      },
    };
    expect(closure(lock, ["a"])).toEqual([
      "node_modules/a",
      "node_modules/a/node_modules/b",
      "node_modules/c",
    ]);
    expect(() => closure({ packages: { "node_modules/a": { dependencies: { x: "1" } } } }, ["a"])).toThrow(
      "package-lock.json has no x (needed by node_modules/a)",
    );
    expect([packageName("zod/mini"), packageName("@scope/pkg/sub"), packageName("node:fs")]).toEqual([
      "zod",
      "@scope/pkg",
      undefined,
    ]);
  });
});

// The `scv` executable (dist/scv.js): runs the CLI bundle beside it through V8's code cache
// (compile-cache.ts).

import { join } from "node:path";
import { launch } from "./compile-cache.js";

/** A hash of dist/app.js, set by scripts/build.mjs: a cache belongs to one build of the CLI. */
declare const SCV_BUILD_ID: string;

launch(join(__dirname, "app.js"), SCV_BUILD_ID, require);

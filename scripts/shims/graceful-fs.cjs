// Stands in for graceful-fs in the bundle (scripts/build.mjs): proper-lockfile, its only user, makes
// a handful of fs calls per lock, where graceful-fs's queueing after EMFILE never comes into play;
// loading graceful-fs (which patches fs and loads assert) cost every turn's start-up a few ms.
module.exports = require("node:fs");

// scv's version, from package.json (inlined by the bundler).

import packageJson from "../package.json" with { type: "json" };

export const VERSION: string = packageJson.version;

// Values the config file's schemas share (src/home/config.ts, src/notify-settings.ts): durations as
// users write them.

import * as z from "zod/mini";
import { isWaitable, parseDuration } from "./duration.js";
import { lazy } from "./lazy.js";

/** A duration from 1 ms to 24 days (`90s`, `20m`, `1h`). */
export const durationSetting = lazy(() =>
  z.string().check(
    z.refine((text: string) => isWaitable(parseDuration(text)), {
      error: "a duration from 1ms to 24d, such as 90s, 20m or 1h",
    }),
  ),
);

/** A duration, or 0 for none (`session_idle = "0"` keeps no session warm). */
export const durationOrNoneSetting = lazy(() =>
  z.string().check(
    z.refine(
      (text: string) => {
        const ms = parseDuration(text);
        return ms === 0 || isWaitable(ms);
      },
      { error: "a duration up to 24d, such as 90s, 10m or 1h, or 0 for none" },
    ),
  ),
);

// `[notify]` in scv's config, and `[agents.<name>.notify]` over it for that agent's turns: what scv
// runs or shows when a job ends, fails, waits for a permission's answer, or waits for a rate limit's
// reset (src/cli/notify.ts does it).

import * as z from "zod/mini";
import { durationSetting } from "./config-values.js";
import { lazy } from "./lazy.js";

const NOTIFY_EVENTS = ["done", "failed", "needs-approval", "cooling"] as const;
export type NotifyEventName = (typeof NOTIFY_EVENTS)[number];

export const notifySettingsSchema = lazy(() =>
  z.strictObject({
    /** A program and its arguments (no shell), run with the event as one JSON object on stdin. */
    command: z.optional(
      z.array(z.string()).check(
        z.minLength(1, { error: 'expected a program and its arguments, such as ["notify.sh", "--quiet"]' }),
        z.refine((words: string[]) => (words[0] ?? "") !== "", { error: "expected a program name first" }),
      ),
    ),
    /** Which events notify; every one by default. */
    on: z.optional(z.array(z.enum(NOTIFY_EVENTS))),
    /** The desktop's notifier too (notify-send, osascript), where there is one. */
    desktop: z.optional(z.boolean()),
    /** A turn in the foreground that took at least this long rings the terminal's bell as it ends. */
    bell_after: z.optional(durationSetting()),
    /** The prompt's text in the event; never by default. */
    include_prompt: z.optional(z.boolean()),
    /** How long `command` may run before it is stopped (10s by default). */
    timeout: z.optional(durationSetting()),
  }),
);

export type NotifySettings = z.infer<ReturnType<typeof notifySettingsSchema>>;

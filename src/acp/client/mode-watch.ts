// The permission mode an ACP session reports (`current_mode_update`, or a `config_option_update` of
// its mode option), checked against the turn's policy as a per-turn CLI's report is (mode.ts):
// under `auto` a row whose full permission is a mode must report that mode; under `default` it must
// not.

import type { AcpFullPermission } from "../../adapters.js";
import { readAs } from "../../parsers/wire.js";
import type { Policy } from "../../transport/env.js";
import type { ModeMismatch } from "../../transport/mode.js";
import { ConfigOptions, CurrentMode, modeOption, Notification } from "../events/acp-wire.js";

/** The session and mode a `session/update`'s params report, if they report one. */
export function reportedMode(params: unknown): { sessionId: string; mode: string } | undefined {
  const notification = readAs(Notification, params);
  if (notification === null) return undefined;
  const { sessionId, update } = notification;
  if (update.sessionUpdate === "current_mode_update") {
    const mode = readAs(CurrentMode, update)?.currentModeId;
    return mode === undefined ? undefined : { sessionId, mode };
  }
  if (update.sessionUpdate === "config_option_update") {
    const options = readAs(ConfigOptions, update)?.configOptions;
    const mode = options === undefined ? undefined : modeOption(options);
    return mode === undefined ? undefined : { sessionId, mode };
  }
  return undefined;
}

/** What is wrong with a reported mode under the policy, if anything. */
export function modeMismatch(
  name: string,
  policy: Policy,
  full: AcpFullPermission,
  reported: string,
): ModeMismatch | undefined {
  if (full.kind !== "mode") return undefined;
  if (policy === "auto" && reported !== full.mode)
    return {
      reported,
      error: `${name}'s session reported mode '${reported}' under --policy auto, not '${full.mode}'; scv stopped it`,
      hint: "look for a setting in its home that overrides the mode, or run with --policy default",
    };
  if (policy === "default" && reported === full.mode)
    return {
      reported,
      error: `${name}'s session reported mode '${reported}' under --policy default; scv stopped it`,
      hint: "remove the setting that grants it from its home, or pass --policy auto if it may have full permissions",
    };
  return undefined;
}

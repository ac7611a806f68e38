// The policy, model, effort and permission requests of an ACP turn, through the built scv against the
// scripted fake ACP agent standing in for `gemini --acp` (cold turns): --policy auto sets the
// full-permission mode and stops a session that leaves it, --policy default refuses a session its own
// settings start in yolo, a model or effort the session does not offer is refused before the prompt,
// and a permission request without a terminal is rejected (allowed once under --policy auto).

import { describe, expect, it } from "vitest";
import { acpMethods, acpReceived, useColdAcpLab } from "../helpers/acp.js";
import { resultOf as json } from "../helpers/acp-world.js";
import { scv, type World } from "../helpers/scv.js";

let world: World;
useColdAcpLab((created) => {
  world = created;
});

describe("policy, model and permissions", () => {
  it("--policy auto sets the full-permission mode and the session runs in it", async () => {
    const run = await scv(world, [
      "delegate",
      "gemini",
      "--transport",
      "acp",
      "--policy",
      "auto",
      "--json",
      "go",
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    const result = json(run.stdout);
    expect(result.reply).toBe("REPLY go (turn 1, mode yolo)");
    expect(result.mode).toBe("yolo");
    expect(acpReceived(world).find((message) => message.method === "session/set_mode")?.params).toMatchObject(
      {
        modeId: "yolo",
      },
    );
  });

  it("a session that reports another mode mid-turn under --policy auto is stopped (session/cancel), exit 1", async () => {
    const run = await scv(world, [
      "delegate",
      "gemini",
      "--transport",
      "acp",
      "--policy",
      "auto",
      "--json",
      "flip and hang",
    ]);
    expect(run.exitCode).toBe(1);
    const result = json(run.stdout);
    expect(result.error).toBe(
      "gemini's session reported mode 'default' under --policy auto, not 'yolo'; scv stopped it",
    );
    expect(result.mode).toBe("default");
    expect(acpMethods(world)).toContain("session/cancel");
  });

  it("under --policy default, a session its own settings start in yolo is refused before the prompt", async () => {
    const run = await scv(world, ["delegate", "gemini", "--transport", "acp", "go"], {
      env: { FAKE_ACP_START_MODE: "yolo" },
    });
    expect(run.exitCode).toBe(1);
    expect(run.stderr.split("\n")[0]).toBe(
      "scv: gemini's session runs in yolo (its own settings choose it), which --policy default forbids — remove that setting from its home, or use --policy auto",
    );
    expect(acpMethods(world)).not.toContain("session/prompt");
  });

  it("a model the session offers is set; one it does not is refused with the offered ones", async () => {
    const run = await scv(world, ["delegate", "gemini:fake-large", "--transport", "acp", "go"]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(
      acpReceived(world).find((message) => message.method === "session/set_model")?.params,
    ).toMatchObject({
      modelId: "fake-large",
    });
    const wrong = await scv(world, ["delegate", "gemini:gemini-9-ultra", "--transport", "acp", "go"]);
    expect(wrong.exitCode).toBe(2);
    // Told from what the server offered in the turn before, without starting it.
    expect(wrong.stderr).toBe(
      "scv: Gemini CLI does not offer the model gemini-9-ultra over ACP — pick one it offers: fake-small, fake-large\n" +
        "scv: note: told from what Gemini CLI's ACP server offered before, without starting it — ask for it again to have the server itself asked\n",
    );
    // Run again, the server is asked, and refuses it the same way.
    const again = await scv(world, ["delegate", "gemini:gemini-9-ultra", "--transport", "acp", "go"]);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toBe(
      "scv: Gemini CLI does not offer the model gemini-9-ultra over ACP — pick one it offers: fake-small, fake-large\n",
    );
  });

  it("an effort the session offers no option for is refused before the prompt", async () => {
    const run = await scv(world, ["delegate", "gemini", "--transport", "acp", "--effort", "high", "go"]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe("scv: Gemini CLI takes no effort over ACP — omit --effort\n");
    expect(acpMethods(world)).not.toContain("session/prompt");
  });

  it("without a terminal, a permission request is rejected and the result says so", async () => {
    const run = await scv(world, ["delegate", "gemini", "--transport", "acp", "--json", "use a tool"]);
    expect(run.exitCode, run.stderr).toBe(0);
    const result = json(run.stdout);
    expect(result.reply).toBe("REJECTED");
    expect(result.notes).toEqual([
      "gemini asked to run execute: $ touch probe.txt; scv rejected it, as no terminal could ask you — use --policy auto to allow its tools",
    ]);
  });

  it("under --policy auto, a permission request is allowed once", async () => {
    const run = await scv(world, [
      "delegate",
      "gemini",
      "--transport",
      "acp",
      "--policy",
      "auto",
      "use a tool",
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toBe("ALLOWED proceed_once\n");
  });
});

// The session host's relay between its ACP server and one connected turn at a time: the turn's ids
// kept apart from the host's, initialize answered once by the server and then from memory, the
// session held with the mode set since, a prompt left running cancelled, a question with nobody to
// ask answered `cancelled`.

import { describe, expect, it } from "vitest";
import { type RelayLink, SessionHostRelay } from "../../../src/acp/session-host/relay.js";

function setUp() {
  const toServer: Record<string, unknown>[] = [];
  const relay = new SessionHostRelay((line) => toServer.push(JSON.parse(line) as Record<string, unknown>));
  const link = () => {
    const got: Record<string, unknown>[] = [];
    const own: RelayLink = { send: (line) => got.push(JSON.parse(line) as Record<string, unknown>) };
    return { own, got };
  };
  const send = (target: RelayLink, message: Record<string, unknown>) =>
    relay.fromClient(target, JSON.stringify({ jsonrpc: "2.0", ...message }));
  const answer = (message: Record<string, unknown>) =>
    relay.fromServer(JSON.stringify({ jsonrpc: "2.0", ...message }));
  return { relay, toServer, link, send, answer };
}

describe("the host relay", () => {
  it("numbers each turn's requests itself and answers each turn under its own ids", () => {
    const { relay, toServer, link, send, answer } = setUp();
    const first = link();
    relay.attach(first.own);
    send(first.own, { id: 0, method: "initialize", params: { protocolVersion: 1 } });
    expect(toServer).toEqual([
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1 } },
    ]);
    answer({ id: 1, result: { protocolVersion: 1 } });
    expect(first.got).toEqual([{ jsonrpc: "2.0", id: 0, result: { protocolVersion: 1 } }]);
    send(first.own, { id: 1, method: "session/new", params: { cwd: "/p" } });
    answer({ id: 2, result: { sessionId: "s1", modes: { currentModeId: "default" } } });
    expect(relay.session).toEqual({
      id: "s1",
      answer: { sessionId: "s1", modes: { currentModeId: "default" } },
      first: { sessionId: "s1", modes: { currentModeId: "default" } },
    });
    send(first.own, { id: 2, method: "session/set_mode", params: { sessionId: "s1", modeId: "yolo" } });
    answer({ id: 3, result: {} });
    relay.detach(first.own);

    // The next turn starts its ids again; initialize is answered from memory, not by the server.
    const second = link();
    relay.attach(second.own);
    const sent = toServer.length;
    send(second.own, { id: 0, method: "initialize", params: { protocolVersion: 1 } });
    expect(toServer).toHaveLength(sent);
    expect(second.got).toEqual([{ jsonrpc: "2.0", id: 0, result: { protocolVersion: 1 } }]);
    expect(relay.session?.answer).toMatchObject({ modes: { currentModeId: "yolo" } });
    // What the session began with stays, for a later turn to set back.
    expect(relay.session?.first).toEqual({ sessionId: "s1", modes: { currentModeId: "default" } });
    send(second.own, { id: 1, method: "session/prompt", params: { sessionId: "s1", prompt: [] } });
    expect(toServer.at(-1)).toMatchObject({ id: 4, method: "session/prompt" });
    relay.fromServer(
      JSON.stringify({
        jsonrpc: "2.0",
        method: "session/update",
        params: {
          sessionId: "s1",
          update: { sessionUpdate: "current_mode_update", currentModeId: "default" },
        },
      }),
    );
    expect(relay.session?.answer).toMatchObject({ modes: { currentModeId: "default" } });
    answer({ id: 4, result: { stopReason: "end_turn" } });
    expect(second.got.at(-1)).toEqual({ jsonrpc: "2.0", id: 1, result: { stopReason: "end_turn" } });
    expect(relay.prompting).toBe(0);
  });

  it("keeps the options a set_config_option answer reports, and the session's first answer beside them", () => {
    const { relay, link, send, answer } = setUp();
    const turn = link();
    relay.attach(turn.own);
    const effort = (current: string) => [
      { id: "thought_level", category: "thought_level", currentValue: current, options: [] },
    ];
    send(turn.own, { id: 1, method: "session/new", params: { cwd: "/p" } });
    answer({ id: 1, result: { sessionId: "s1", configOptions: effort("medium") } });
    send(turn.own, {
      id: 2,
      method: "session/set_config_option",
      params: { sessionId: "s1", configId: "thought_level", value: "high" },
    });
    answer({ id: 2, result: { configOptions: effort("high") } });
    expect(relay.session?.answer).toEqual({ sessionId: "s1", configOptions: effort("high") });
    expect(relay.session?.first).toEqual({ sessionId: "s1", configOptions: effort("medium") });
  });

  it("a turn that leaves mid-prompt has it cancelled, its late answer dropped, its questions answered cancelled", () => {
    const { relay, toServer, link, send, answer } = setUp();
    const turn = link();
    relay.attach(turn.own);
    send(turn.own, { id: 5, method: "session/prompt", params: { sessionId: "s1", prompt: [] } });
    answer({ id: 77, method: "session/request_permission", params: { sessionId: "s1", options: [] } });
    expect(turn.got.at(-1)).toMatchObject({ id: 77, method: "session/request_permission" });
    relay.detach(turn.own);
    expect(toServer.slice(-2)).toEqual([
      { jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "s1" } },
      { jsonrpc: "2.0", id: 77, result: { outcome: { outcome: "cancelled" } } },
    ]);
    expect(relay.prompting).toBe(1);
    answer({ id: 1, result: { stopReason: "cancelled" } });
    expect(relay.prompting).toBe(0);
    expect(turn.got).toHaveLength(1);
    // Asked with nobody connected: cancelled at once.
    answer({ id: 78, method: "session/request_permission", params: { sessionId: "s1", options: [] } });
    expect(toServer.at(-1)).toEqual({
      jsonrpc: "2.0",
      id: 78,
      result: { outcome: { outcome: "cancelled" } },
    });
  });
});

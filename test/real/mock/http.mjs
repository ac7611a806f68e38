// Response helpers shared by the mock model servers: JSON bodies, Server-Sent Events, reply chunking.

/** Writes one JSON response. */
export function sendJson(res, status, headers, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(text);
}

/**
 * Writes a whole SSE stream. `events` holds `[eventName | null, data]`; a null name writes only `data:`
 * (the OpenAI Chat and Gemini style), a string data is written verbatim (`[DONE]`).
 */
export function sendSse(res, headers, events) {
  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    connection: "keep-alive",
    ...headers,
  });
  for (const [event, data] of events) {
    const payload = typeof data === "string" ? data : JSON.stringify(data);
    res.write(event ? `event: ${event}\ndata: ${payload}\n\n` : `data: ${payload}\n\n`);
  }
  res.end();
}

/** Splits `MOCK-REPLY-3` into `["MOCK-", "REPLY-", "3"]` so every stream has several deltas. */
export function splitReply(text) {
  const parts = text.split(/(?<=-)/);
  return parts.length > 0 ? parts : [text];
}

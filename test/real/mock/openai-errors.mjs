// Error bodies and the model list shared by both OpenAI shapes (Responses and Chat Completions), as the
// OpenAI API sends them (https://platform.openai.com/docs/guides/error-codes).

const ERRORS = {
  401: {
    message: "Incorrect API key provided: sk-mock***. (mock)",
    type: "invalid_request_error",
    param: null,
    code: "invalid_api_key",
  },
  403: {
    message: "Project `proj_mock` does not have access to model `gpt-mock-denied`",
    type: "invalid_request_error",
    param: null,
    code: "model_not_found",
  },
  404: {
    message: "The model `gpt-mock-missing` does not exist or you do not have access to it.",
    type: "invalid_request_error",
    param: null,
    code: "model_not_found",
  },
  429: {
    message:
      "Rate limit reached for requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 1s. (mock)",
    type: "requests",
    param: null,
    code: "rate_limit_exceeded",
  },
  500: {
    message: "The server had an error while processing your request. Sorry about that! (mock)",
    type: "server_error",
    param: null,
    code: null,
  },
};

/** Error response for a failing mode: [status, headers, body]. */
export function openAiError(mode) {
  const parsed = Number.parseInt(mode, 10);
  const status = parsed in ERRORS ? parsed : 500;
  const headers = { "x-request-id": `req_mock_${status}` };
  if (status === 429) {
    headers["retry-after"] = "1";
    headers["x-ratelimit-limit-requests"] = "3";
    headers["x-ratelimit-remaining-requests"] = "0";
    headers["x-ratelimit-reset-requests"] = "1s";
  }
  return [status, headers, { error: ERRORS[status] }];
}

export function openAiModels() {
  return {
    object: "list",
    data: ["mock-model", "gpt-5.5"].map((id) => ({
      id,
      object: "model",
      created: 1767225600,
      owned_by: "mock",
    })),
  };
}

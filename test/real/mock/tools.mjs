// The `tool` mode of the mock servers: a generation request that offers tools, and does not already
// carry a tool's result, is answered with one call of the CLI's shell tool (`touch scv-tool-probe.txt`),
// so that a turn shows a tool call, its permission request and its result; the request that carries
// the result gets the ordinary text reply. The command writes a file: CLIs run read-only commands
// such as `echo` without asking, and the file tells whether the command ran. Each API shape says how it lists tools, how a result comes
// back and how a call is sent (`offeredTools`, `carriesToolResult`, `replyToolCall` in its module).

/** What the shell tool is asked to run, in the CLI's working folder. */
export const PROBE_FILE = "scv-tool-probe.txt";
export const PROBE_COMMAND = `touch ${PROBE_FILE}`;

// A CLI's shell tool, by the names the CLIs give it (gemini/qwen run_shell_command, opencode/copilot
// bash, claude Bash, codex shell/exec_command).
const SHELL_NAMES = /^(?:run_shell_command|bash|shell|shell_command|exec_command|local_shell|execute)$/i;
const SHELL_LIKE = /shell|bash|command|exec/i;

/** The tool to call among `tools` ({name, schema}), or undefined when none is a shell. */
export function pickShellTool(tools) {
  return (
    tools.find((tool) => SHELL_NAMES.test(tool.name)) ?? tools.find((tool) => SHELL_LIKE.test(tool.name))
  );
}

/** Arguments for `tool` that fit its JSON schema: `command` (the probe's by default), a description,
 * and a neutral value for every other required property. */
export function probeArguments(tool, command = PROBE_COMMAND) {
  const schema = tool.schema && typeof tool.schema === "object" ? tool.schema : {};
  const properties = schema.properties && typeof schema.properties === "object" ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const args = {};
  for (const [name, property] of Object.entries(properties)) {
    const type = String(
      Array.isArray(property?.type) ? property.type[0] : (property?.type ?? ""),
    ).toLowerCase();
    if (/^(?:command|cmd)$/i.test(name)) {
      args[name] = type === "array" ? ["bash", "-lc", command] : command;
    } else if (name === "description" || (required.has(name) && /description|justification/i.test(name))) {
      // Only where asked for: Codex refuses a `justification` without `sandbox_permissions`.
      args[name] = "Print a probe line";
    } else if (required.has(name)) {
      args[name] = neutral(type, property);
    }
  }
  if (Object.keys(properties).length === 0) args.command = command;
  return args;
}

function neutral(type, property) {
  if (Array.isArray(property?.enum) && property.enum.length > 0) return property.enum[0];
  switch (type) {
    case "boolean":
      return false;
    case "number":
    case "integer":
      return typeof property?.minimum === "number" ? property.minimum : 10000;
    case "array":
      return [];
    case "object":
      return {};
    default:
      return "";
  }
}

/** The call to make for a request (`{id, name, args}`), or undefined when it gets a text reply. */
export function toolCallFor(api, body, n) {
  if (body === null || typeof body !== "object" || api.carriesToolResult(body)) return undefined;
  const tool = pickShellTool(api.offeredTools(body));
  if (tool === undefined) return undefined;
  return { id: `call_mock_${String(n).padStart(4, "0")}`, name: tool.name, args: probeArguments(tool) };
}

// Terminal escape sequences that some CLIs write even when their output is a pipe (Claude Code's
// `\x1b[?1004l`, OpenCode's colours): they must not hide a JSON line or an error message.

// CSI sequences (`ESC [ … final`) and OSC sequences (`ESC ] … BEL` or `ESC ] … ESC \`).
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching escape sequences is the point
const ESCAPE = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

export function stripAnsi(text: string): string {
  return text.includes("\u001b") ? text.replace(ESCAPE, "") : text;
}

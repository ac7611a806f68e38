import { describe, expect, it } from "vitest";
import { isSecretName, redact } from "../../src/parsers/redact.js";

describe("redact", () => {
  it.each([
    ["curl -H 'x' sk-ant-api03-abcdefghijklmnop", "curl -H 'x' …"],
    ["echo sk-proj-AbC123_xyz-789", "echo …"],
    [
      "git push https://ghp_abcdefghijklmnopqrstuvwxyz0123@github.com/o/r",
      "git push https://…@github.com/o/r",
    ],
    ["export T=github_pat_11ABCDEFG_hijklmnop", "export T=…"],
    ["aws AKIAIOSFODNN7EXAMPLE s3 ls", "aws … s3 ls"],
    ["key AIzaSyA-1234567890abcdefghijklmnopqrstu", "key …"],
    ["push glpat-abcdEFGH1234 now", "push … now"],
    ["slack xoxb-1234567890-abcdef", "slack …"],
    ["jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abcdefghijklmnop", "jwt …"],
    ["gh auth ghs_abcdefghij and gho_abcdefghij", "gh auth … and …"],
  ])("hides token shapes: %s", (input, expected) => {
    expect(redact(input)).toBe(expected);
  });

  it("hides Bearer and Basic credentials", () => {
    expect(redact('curl -H "Authorization: Bearer abc.def-123" https://x')).toBe(
      'curl -H "Authorization: Bearer …" https://x',
    );
    expect(redact("Authorization: Basic dXNlcjpwYXNz")).toBe("Authorization: Basic …");
  });

  it("hides the values of secret flags, spaced or joined", () => {
    expect(redact("tool --key abc123 --model sonnet")).toBe("tool --key … --model sonnet");
    expect(redact("tool --token=abc123 -v")).toBe("tool --token=… -v");
    expect(redact("mysql --password 'p w d' db")).toBe("mysql --password … db");
    expect(redact("cli --api-key xyz")).toBe("cli --api-key …");
  });

  it("keeps flags that name no secret", () => {
    expect(redact("ls --color always --keyboard x")).toBe("ls --color always --keyboard x");
  });

  it("hides assignments to secret-ish names", () => {
    expect(redact("OPENAI_API_KEY=abc123 GH_TOKEN=xyz npm test")).toBe(
      "OPENAI_API_KEY=… GH_TOKEN=… npm test",
    );
    expect(redact('export DB_PASSWORD="hunter 2"')).toBe("export DB_PASSWORD=…");
    expect(redact("https://ampcode.com/auth?authToken=c4a7a20&x=1")).toBe(
      "https://ampcode.com/auth?authToken=…&x=1",
    );
    expect(redact('{"apiKey":"abc","name":"n"}')).toBe('{"apiKey":…,"name":"n"}');
  });

  it("keeps assignments to ordinary names", () => {
    expect(redact("NODE_ENV=test MONKEY=1 npm test")).toBe("NODE_ENV=test MONKEY=1 npm test");
  });

  it("hides a password inside a URL", () => {
    expect(redact("git clone https://user:s3cret@example.com/r.git")).toBe(
      "git clone https://user:…@example.com/r.git",
    );
  });

  it("leaves ordinary text alone", () => {
    const text = "$ npm test -- --run && grep -rn 'TODO' src";
    expect(redact(text)).toBe(text);
  });
});

describe("redact, called again on the same names", () => {
  it("judges a name the same from its cache as the first time", () => {
    const text = "tool --api-key abc --model m OPENAI_API_KEY=x MONKEY=1";
    const first = redact(text);
    expect(first).toBe("tool --api-key … --model m OPENAI_API_KEY=… MONKEY=1");
    for (let round = 0; round < 3; round += 1) expect(redact(text)).toBe(first);
  });
});

describe("isSecretName", () => {
  it.each(["GH_TOKEN", "apiKey", "--api-key", "APIKEY", "x-api-key", "client_secret", "PGPASSWORD"])(
    "%s is secret",
    (name) => {
      expect(isSecretName(name)).toBe(true);
    },
  );

  it.each(["MONKEY", "keyboard", "tokenizer", "NODE_ENV"])("%s is not secret", (name) => {
    expect(isSecretName(name)).toBe(false);
  });
});

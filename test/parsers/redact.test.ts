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

/** The secret in each command is `S3cr3tValue9` or a token of its kind; none may survive. */
const SECRET_COMMANDS: readonly (readonly [string, string])[] = [
  // Passwords glued to, or after, a command's own flags.
  ["mysql -uroot -pS3cr3tValue9 db", "mysql -uroot -p… db"],
  ["mysqldump -h db -u admin -pS3cr3tValue9 shop > dump.sql", "mysqldump -h db -u admin -p… shop > dump.sql"],
  ["mariadb -pS3cr3tValue9", "mariadb -p…"],
  ["sshpass -p S3cr3tValue9 ssh host", "sshpass -p … ssh host"],
  [
    "mongosh -u admin -p S3cr3tValue9 --authenticationDatabase admin",
    "mongosh -u admin -p … --authenticationDatabase admin",
  ],
  ["redis-cli -h cache -a S3cr3tValue9 ping", "redis-cli -h cache -a … ping"],
  ["docker login -u me -p S3cr3tValue9 registry.example.com", "docker login -u me -p … registry.example.com"],
  ["openssl pkcs12 -in a.p12 -passin pass:S3cr3tValue9", "openssl pkcs12 -in a.p12 -passin pass:…"],
  ["tool --password=S3cr3tValue9", "tool --password=…"],
  ["tool --password S3cr3tValue9", "tool --password …"],
  ["tool --token S3cr3tValue9 --verbose", "tool --token … --verbose"],
  ["tool --client-secret=S3cr3tValue9", "tool --client-secret=…"],
  ["wget --http-password=S3cr3tValue9 https://x", "wget --http-password=… https://x"],
  ["psql --passphrase 'S3cr3tValue9'", "psql --passphrase …"],
  // user:password in URLs and arguments.
  ["git clone https://me:S3cr3tValue9@git.example.com/r.git", "git clone https://me:…@git.example.com/r.git"],
  ["redis-cli -u redis://:S3cr3tValue9@cache:6379", "redis-cli -u redis://:…@cache:6379"],
  ["psql postgres://app:S3cr3tValue9@db/shop", "psql postgres://app:…@db/shop"],
  ["curl -u admin:S3cr3tValue9 https://x", "curl -u admin:… https://x"],
  ["curl --user 'admin:S3cr3tValue9' https://x", "curl --user 'admin:…' https://x"],
  ["curl --user=admin:S3cr3tValue9 https://x", "curl --user=admin:… https://x"],
  ["smbclient //srv/share -U me%S3cr3tValue9", "smbclient //srv/share -U me%…"],
  ["curl https://abcdef0123456789abcdef01@o1.ingest.sentry.io/1", "curl https://…@o1.ingest.sentry.io/1"],
  // Tokens of well-known shapes, wherever they are.
  ["echo ghp_abcdefghijklmnopqrstuvwxyz0123456789", "echo …"],
  ["echo github_pat_11ABCDEFG0_abcdefghijklmnopqrstuvwxyz", "echo …"],
  ["echo glpat-abcdefghijklmnopqrst", "echo …"],
  ["echo xoxb-1234567890-abcdefghij", "echo …"],
  ["echo xoxp-1234567890-abcdefghij", "echo …"],
  ["echo sk-proj-abcdefghijklmnop", "echo …"],
  ["echo sk-ant-api03-abcdefghijklmnop", "echo …"],
  ["echo AKIAIOSFODNN7EXAMPLE", "echo …"],
  ["echo ASIAIOSFODNN7EXAMPLE", "echo …"],
  ["echo AIzaSyA-1234567890abcdefghijklmnopqrstu", "echo …"],
  ["echo npm_abcdefghijklmnopqrstuvwxyz0123456789", "echo …"],
  ["echo hf_abcdefghijklmnopqrstuvwxyzABCDEFGH", "echo …"],
  ["echo r8_abcdefghijklmnopqrstuvwxyz", "echo …"],
  ["echo xai-abcdefghijklmnopqrstuvwxyz0123", "echo …"],
  ["echo gsk_abcdefghijklmnopqrstuvwxyz0123", "echo …"],
  ["echo ya29.a0AfH6SMBabcdefghijklmnop", "echo …"],
  ["echo GOCSPX-abcdefghijklmnop", "echo …"],
  ["echo sk_live_abcdefghijklmnop", "echo …"],
  ["echo SG.abcdefghijklmnopqr.abcdefghijklmnopqrstuv", "echo …"],
  ["echo pypi-AgEIcHlwaS5vcmcabcdefghij", "echo …"],
  ["echo eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abcdefghijklmnop", "echo …"],
  ["curl -H 'Authorization: Bearer S3cr3tValue9' https://x", "curl -H 'Authorization: Bearer …' https://x"],
  ['curl -H "Authorization: S3cr3tValue9" https://x', 'curl -H "Authorization: …" https://x'],
  ["curl -H 'X-Api-Key: S3cr3tValue9' https://x", "curl -H 'X-Api-Key: …' https://x"],
  ["curl -H 'Cookie: session=S3cr3tValue9' https://x", "curl -H 'Cookie: …' https://x"],
  [
    "curl 'https://x.blob.core.windows.net/c/b?sv=2022&sig=S3cr3tValue9'",
    "curl 'https://x.blob.core.windows.net/c/b?sv=2022&sig=…'",
  ],
  // Settings whose name says secret.
  ["aws configure set aws_secret_access_key S3cr3tValue9", "aws configure set aws_secret_access_key …"],
  [
    "aws configure set --profile prod aws_secret_access_key S3cr3tValue9",
    "aws configure set --profile prod aws_secret_access_key …",
  ],
  [
    "npm config set //registry.npmjs.org/:_authToken S3cr3tValue9",
    "npm config set //registry.npmjs.org/:_authToken …",
  ],
  ["yarn config set npmAuthToken S3cr3tValue9", "yarn config set npmAuthToken …"],
  ["git config --global credential.password S3cr3tValue9", "git config --global credential.password …"],
  // Variables and fields.
  ["FOO_TOKEN=S3cr3tValue9 make", "FOO_TOKEN=… make"],
  ["export AWS_SECRET_ACCESS_KEY=S3cr3tValue9", "export AWS_SECRET_ACCESS_KEY=…"],
  ["docker run -e API_KEY=S3cr3tValue9 img", "docker run -e API_KEY=… img"],
  ["docker run --env=DB_PASSWORD=S3cr3tValue9 img", "docker run --env=DB_PASSWORD=… img"],
  [
    "kubectl create secret generic x --from-literal=password=S3cr3tValue9",
    "kubectl create secret generic x --from-literal=password=…",
  ],
  ["SENTRY_DSN=S3cr3tValue9 node app", "SENTRY_DSN=… node app"],
  ['echo \'{"client_secret": "S3cr3tValue9"}\'', "echo '{\"client_secret\": …}'"],
  [
    "curl -d 'grant_type=x&client_secret=S3cr3tValue9' https://x",
    "curl -d 'grant_type=x&client_secret=…' https://x",
  ],
  // PEM private keys, whole or cut short.
  [
    "printf '-----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAA -----END OPENSSH PRIVATE KEY-----' > k",
    "printf '-----BEGIN OPENSSH PRIVATE KEY-----…' > k",
  ],
  [
    "cat > k <<EOF -----BEGIN RSA PRIVATE KEY----- MIIEpAIBAAKCAQEA7",
    "cat > k <<EOF -----BEGIN RSA PRIVATE KEY-----…",
  ],
  [
    "echo -----BEGIN PGP PRIVATE KEY BLOCK----- lQOYBF abc -----END PGP PRIVATE KEY BLOCK-----",
    "echo -----BEGIN PGP PRIVATE KEY BLOCK-----…",
  ],
];

/** Ordinary commands that must stay as they are. */
const HARMLESS_COMMANDS: readonly string[] = [
  "mkdir -p src/components/button",
  "ssh -p 2222 deploy@host",
  "docker run -p 8080:80 -u 1000:1000 nginx",
  "git add -p",
  "cp -pr a b",
  "tar -pxzf release.tgz",
  "mysql -u root -p shop",
  "npm test -- --passWithNoTests --ci",
  "jest --pass-with-no-tests --ci",
  "grep -rn token src/",
  "grep -rn 'password' docs",
  "rg apiKey src --type ts",
  "python -m pytest -k test_token_refresh -x",
  "sed -n 1,20p src/auth.ts",
  "cargo test tokenizer",
  "git config user.name 'A Person'",
  "git config credential.helper store",
  "aws configure set region eu-west-1",
  "kubectl get secrets -n prod",
  "echo $GITHUB_TOKEN | wc -c",
  "export PATH=$PATH:/opt/bin",
  "git clone git@github.com:owner/repo.git",
  "ssh://git@github.com/owner/repo",
  "curl https://example.com/api?page=2&limit=10",
  "curl -s https://api.github.com/repos/o/r | jq .stargazers_count",
  "docker login -u me registry.example.com",
  "redis-cli -h localhost ping",
  "ls --color always --keyboard x",
  "NODE_ENV=test MONKEY=1 npm test",
  "git log --author=me --since=2.weeks",
  "openssl x509 -in cert.pem -noout -text",
  "cat -----BEGIN-CERTIFICATE-notes.txt",
  // Prose in an error line.
  "Please set an Auth method or one of: GEMINI_API_KEY, GOOGLE_GENAI_USE_VERTEXAI",
  "Please configure your API key in settings",
  "grep -n 'Token expired' logs/app.log",
];

describe("redact, by the shapes of secrets", () => {
  it.each(SECRET_COMMANDS)("%s", (input, expected) => {
    const out = redact(input);
    expect(out).toBe(expected);
    expect(out).not.toContain("S3cr3tValue9");
  });

  it.each(HARMLESS_COMMANDS)("keeps %s", (input) => {
    expect(redact(input)).toBe(input);
  });
});

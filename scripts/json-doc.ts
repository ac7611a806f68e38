// Renders docs/json/<name>.schema.json from the zod schema of each `--json` document
// (src/json-documents.ts), so the documented shapes can never drift from what scv prints.

import { toJSONSchema } from "zod/v4";
import { JSON_DOCUMENTS, type JsonDocument } from "../src/json-documents.js";

export const JSON_SCHEMA_DIR = "docs/json";

/** The file of each document's schema, and its text. */
export function renderJsonSchemas(): { path: string; text: string }[] {
  return (Object.keys(JSON_DOCUMENTS) as JsonDocument[]).map((name) => {
    const document = JSON_DOCUMENTS[name];
    const schema = toJSONSchema(document.schema(), { io: "output" }) as Record<string, unknown>;
    const { $schema, ...rest } = schema;
    const described = {
      $schema,
      title: document.command,
      description: `${document.about}. Every field is always present; where there is no value it is null.`,
      ...rest,
    };
    return {
      path: `${JSON_SCHEMA_DIR}/${name}.schema.json`,
      text: `${JSON.stringify(described, null, 2)}\n`,
    };
  });
}

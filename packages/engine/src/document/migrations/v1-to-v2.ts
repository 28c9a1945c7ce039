import { copyProperties } from "./copy.ts";

/**
 * Version 1 -> 2. Version 2 only adds to version 1 (paints where colours were, effects, masks,
 * conditions, new layer kinds, rich text slots): every v1 value means the same in v2, a hex colour
 * being a solid paint. So the step is the version number, and every v1 document renders byte for byte
 * as it did (test/document/migrations.test.ts proves it over every example and golden).
 */
export function upgradeV1ToV2(doc: Record<string, unknown>): Record<string, unknown> {
  return copyProperties(doc, { version: 2 }, ["version"]);
}

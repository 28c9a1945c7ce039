import { copyProperties } from "./copy.ts";

/**
 * Version 2 -> 3. Version 3 only adds to version 2 (the `stack` layer, boxes that grow and hug their
 * content): every v2 value means the same in v3. So the step is the version number, and every v2
 * document renders byte for byte as it did (render-node's v2-identity test proves it over every
 * example, and every engine golden is drawn from its document migrated to the current version).
 */
export function upgradeV2ToV3(doc: Record<string, unknown>): Record<string, unknown> {
  return copyProperties(doc, { version: 3 }, ["version"]);
}

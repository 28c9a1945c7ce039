import {
  CURRENT_VERSION,
  migrateDocument,
  type RenderInput,
  type RenderWarning,
  type TemplateDocumentT,
} from "@pictor/engine";
import { expect } from "vitest";
import { testEngine } from "./engine.ts";
import { compareGolden } from "./golden.ts";
import { prepareAll } from "./images.ts";

export interface GoldenRender {
  width: number;
  height: number;
  opaque: boolean;
  warnings: RenderWarning[];
}

/**
 * Migrates the document to the current version (as every host does before drawing), plans its images,
 * prepares them from synthetic sources, renders, and asserts the pixels equal
 * `goldens/<feature>/<name>.png` exactly. Goldens' documents are written as version 2 (documentOf), so
 * each golden also proves that migrating a v2 document draws the same bytes.
 */
export async function expectGolden(
  feature: string,
  name: string,
  source: TemplateDocumentT,
  input: RenderInput = {},
): Promise<GoldenRender> {
  const migrated = migrateDocument(source);
  if (!migrated.ok) throw new Error(JSON.stringify(migrated.errors));
  const document = migrated.document as TemplateDocumentT;
  expect(document.version).toBe(CURRENT_VERSION);
  const engine = await testEngine();
  const images = input.images ?? prepareAll(engine.planImages(document, input));
  const result = engine.render(document, { ...input, images });
  const outcome = await compareGolden(result, feature, name);
  expect(outcome.differing, outcome.message).toBe(0);
  return { width: result.width, height: result.height, opaque: result.opaque, warnings: result.warnings };
}

/** Warning codes of a render, for compact assertions. */
export function codes(warnings: RenderWarning[]): string[] {
  return warnings.map((warning) => warning.code);
}

import type { RenderInput, RenderWarning, TemplateDocumentT } from "@pictor/engine";
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
 * Plans the document's images, prepares them from synthetic sources, renders, and asserts the pixels
 * equal `goldens/<feature>/<name>.png` exactly.
 */
export async function expectGolden(
  feature: string,
  name: string,
  document: TemplateDocumentT,
  input: RenderInput = {},
): Promise<GoldenRender> {
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

import { documentFontFamilies, type TemplateDocumentT } from "@pictor/engine";
import { SHIPPED_FAMILY_NAMES as SHIPPED } from "@pictor/fonts";
import { type Static, Type as T } from "@sinclair/typebox";
import type { AppDeps } from "./app-types.ts";
import { TemplateDetail } from "./schemas.ts";

export const TemplateWarning = T.Object(
  {
    code: T.Literal("font_unknown"),
    family: T.String(),
    message: T.String(),
  },
  { title: "TemplateWarning", additionalProperties: false },
);
export type TemplateWarningT = Static<typeof TemplateWarning>;

/** What create, update and publish answer: the template, and what would not draw as designed. */
export const TemplateDetailWithWarnings = T.Composite(
  [
    TemplateDetail,
    T.Object({
      warnings: T.Array(TemplateWarning, {
        description:
          "font_unknown: a text layer names a font family that neither ships with Pictor nor is among the account's uploaded fonts; renders draw it with fallback fonts and warn font_missing. Empty when every family is known.",
      }),
    }),
  ],
  { title: "TemplateWithWarnings" },
);

/**
 * `font_unknown` for each family the document's text names that is neither shipped nor among the
 * account's uploaded fonts. The account's fonts are read only when a family is not shipped.
 */
export async function fontWarnings(
  deps: Pick<AppDeps, "assetLibrary">,
  accountId: string,
  document: TemplateDocumentT,
): Promise<TemplateWarningT[]> {
  const unshipped = [...documentFontFamilies(document)].filter((family) => !SHIPPED.has(family));
  if (unshipped.length === 0) return [];
  const uploaded = new Set((await deps.assetLibrary.fonts(accountId)).map((asset) => asset.font.family));
  return unshipped
    .filter((family) => !uploaded.has(family))
    .map((family) => ({
      code: "font_unknown",
      family,
      message: `Font family "${family}" is neither shipped nor among the account's fonts: renders will draw it with fallback fonts. Upload it into the fonts/ folder or pick a shipped family.`,
    }));
}

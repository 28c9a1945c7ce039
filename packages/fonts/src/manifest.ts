/**
 * The shipped font set, as data: safe to import in the browser editor (no Node APIs). The Node
 * loader in index.ts turns it into bytes; the server serves the same files to the editor so both
 * sides shape text with identical fonts.
 */

/** Same union as the engine's FontStyle; kept local so this file imports nothing. */
export type FontStyle = "normal" | "italic";

export type FontCategory = "sans" | "serif" | "display" | "condensed" | "mono" | "script-coverage" | "emoji";

export interface ManifestFace {
  family: string;
  weight: number;
  style: FontStyle;
  /**
   * `<npm package>/<path inside it>`. Unique basenames: the basename is also the public file name
   * the server serves the face under.
   */
  file: string;
}

export interface ManifestFamily {
  family: string;
  category: FontCategory;
  /** npm package the faces come from (LICENSES.md lists the licence of each). */
  source: string;
  faces: ManifestFace[];
}

type FaceSpec = readonly [weight: number, style: FontStyle];

const REGULAR: FaceSpec = [400, "normal"];
const BOLD: FaceSpec = [700, "normal"];
const ITALIC: FaceSpec = [400, "italic"];
const BOLD_ITALIC: FaceSpec = [700, "italic"];

const WEIGHT_NAMES: Record<number, string> = { 400: "400Regular", 700: "700Bold" };

/** @expo-google-fonts packages name files `<Family>_<weight><Name>[_Italic].ttf`. */
function expoFamily(family: string, category: FontCategory, specs: readonly FaceSpec[]): ManifestFamily {
  const slug = family.toLowerCase().replaceAll(" ", "-");
  const source = `@expo-google-fonts/${slug}`;
  const faces = specs.map(([weight, style]): ManifestFace => {
    const dir = `${WEIGHT_NAMES[weight]}${style === "italic" ? "_Italic" : ""}`;
    return {
      family,
      weight,
      style,
      file: `${source}/${dir}/${family.replaceAll(" ", "")}_${dir}.ttf`,
    };
  });
  return { family, category, source, faces };
}

const TEXT = [REGULAR, BOLD, ITALIC, BOLD_ITALIC] as const;
const UPRIGHT = [REGULAR, BOLD] as const;

export const FONT_FAMILIES: readonly ManifestFamily[] = [
  expoFamily("Inter", "sans", TEXT),
  expoFamily("Roboto", "sans", TEXT),
  expoFamily("Montserrat", "sans", TEXT),
  expoFamily("Noto Sans", "sans", TEXT),
  expoFamily("Lora", "serif", TEXT),
  expoFamily("Merriweather", "serif", TEXT),
  expoFamily("Playfair Display", "serif", TEXT),
  expoFamily("Noto Serif", "serif", TEXT),
  expoFamily("Bebas Neue", "display", [REGULAR]),
  expoFamily("Oswald", "condensed", UPRIGHT),
  expoFamily("Roboto Condensed", "condensed", TEXT),
  expoFamily("JetBrains Mono", "mono", TEXT),
  expoFamily("Noto Sans Arabic", "script-coverage", UPRIGHT),
  {
    family: "Noto Sans Hebrew",
    category: "script-coverage",
    source: "@embedpdf/fonts-hebrew",
    faces: [
      {
        family: "Noto Sans Hebrew",
        weight: 400,
        style: "normal",
        file: "@embedpdf/fonts-hebrew/fonts/NotoSansHebrew-Regular.ttf",
      },
      {
        family: "Noto Sans Hebrew",
        weight: 700,
        style: "normal",
        file: "@embedpdf/fonts-hebrew/fonts/NotoSansHebrew-Bold.ttf",
      },
    ],
  },
  expoFamily("Noto Sans Devanagari", "script-coverage", UPRIGHT),
  expoFamily("Noto Sans Thai", "script-coverage", UPRIGHT),
  // CJK faces are 5-10 MB each: Regular and Bold only.
  expoFamily("Noto Sans SC", "script-coverage", UPRIGHT),
  expoFamily("Noto Sans JP", "script-coverage", UPRIGHT),
  expoFamily("Noto Sans KR", "script-coverage", UPRIGHT),
  {
    family: "Noto Color Emoji",
    category: "emoji",
    // Decoded from @fontsource/noto-color-emoji's woff2 by scripts/build-emoji.ts and committed.
    source: "@fontsource/noto-color-emoji",
    faces: [
      {
        family: "Noto Color Emoji",
        weight: 400,
        style: "normal",
        file: "@pictor/fonts/files/NotoColorEmoji-Regular.ttf",
      },
    ],
  },
];

/**
 * Families tried in order for characters the layer's family lacks. Noto Sans first: it covers Latin,
 * Greek and Cyrillic that display faces (Bebas Neue, Oswald) lack. Then the scripts with one font
 * each. For Han ideographs, which SC, JP and KR all contain, the first CJK family wins every
 * ideograph, so the order picks the glyph style. SC first: it has the largest Han repertoire (JP and
 * KR each lacked 2 of the 4 ideographs 汉字們们 when measured), so a Chinese sentence never switches
 * fonts mid-line; SC also carries kana, so Japanese text stays in one face instead of mixing two
 * designs. Hangul is only in KR, which is why KR stays in the list. Templates that want Japanese or
 * Korean glyph forms for Han name "Noto Sans JP" or
 * "Noto Sans KR" as the layer family. Emoji last: its cmap also maps digits, `#`, `*`, (c) and (R),
 * which must come from a text face whenever one has them.
 */
export const FALLBACK_FAMILIES: readonly string[] = [
  "Noto Sans",
  "Noto Sans Arabic",
  "Noto Sans Hebrew",
  "Noto Sans Devanagari",
  "Noto Sans Thai",
  "Noto Sans SC",
  "Noto Sans JP",
  "Noto Sans KR",
  "Noto Color Emoji",
];

/**
 * Noto's script families leave digits and Latin punctuation to Noto Sans, the family they are
 * designed with (Noto Sans Hebrew has no ASCII digit or punctuation mark at all): a Hebrew headline
 * with a price or a comma is drawn as designed, not reported as a fallback.
 */
export const FONT_COMPANIONS: Readonly<Record<string, string>> = {
  "Noto Sans Arabic": "Noto Sans",
  "Noto Sans Hebrew": "Noto Sans",
  "Noto Sans Devanagari": "Noto Sans",
  "Noto Sans Thai": "Noto Sans",
};

export const FONT_FACES: readonly ManifestFace[] = FONT_FAMILIES.flatMap((f) => f.faces);

/** The public file name of a face (unique across the set). */
export function fontFileName(face: ManifestFace): string {
  const name = face.file.split("/").pop();
  if (!name) throw new Error(`font face without a file name: ${face.file}`);
  return name;
}

/**
 * The shipped font set, as data: safe to import in the browser editor (no Node APIs). The Node
 * loader in index.ts turns it into bytes; the server serves the same files to the editor so both
 * sides shape text with identical fonts.
 */

/** Same union as the engine's FontStyle; kept local so this file imports nothing. */
export type FontStyle = "normal" | "italic";

/**
 * What the editor's font picker groups families under. `script-coverage` are the Noto families that
 * cover one writing system each (the fallback list); `emoji` is the colour emoji face.
 */
export type FontCategory =
  | "sans"
  | "serif"
  | "display"
  | "mono"
  | "script"
  | "handwriting"
  | "script-coverage"
  | "emoji";

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

const WEIGHT_NAMES: Record<number, string> = {
  100: "100Thin",
  200: "200ExtraLight",
  300: "300Light",
  400: "400Regular",
  500: "500Medium",
  600: "600SemiBold",
  700: "700Bold",
  800: "800ExtraBold",
  900: "900Black",
};

/**
 * A family from its @expo-google-fonts package, whose files are `<Family>_<weight><Name>[_Italic].ttf`.
 * `faces` lists the faces the package has, as `"400 400i 700 700i"` (`i`: the italic of that weight).
 */
function expoFamily(family: string, category: FontCategory, faces: string): ManifestFamily {
  const slug = family.toLowerCase().replaceAll(" ", "-");
  const source = `@expo-google-fonts/${slug}`;
  return {
    family,
    category,
    source,
    faces: faces.split(" ").map((spec): ManifestFace => {
      const weight = Number.parseInt(spec, 10);
      const style = spec.endsWith("i") ? "italic" : "normal";
      const dir = `${WEIGHT_NAMES[weight]}${style === "italic" ? "_Italic" : ""}`;
      return { family, weight, style, file: `${source}/${dir}/${family.replaceAll(" ", "")}_${dir}.ttf` };
    }),
  };
}

/** Every weight from 100 to 900, upright and italic. */
const ALL_WEIGHTS = "100 100i 200 200i 300 300i 400 400i 500 500i 600 600i 700 700i 800 800i 900 900i";
/** Regular and bold, upright and italic: the fallback families, which load whole when a text needs them. */
const TEXT = "400 400i 700 700i";
const UPRIGHT = "400 700";

/**
 * The shipped families, each with every face its package has (the catalogue), except the fallback
 * families (Noto), which keep regular and bold: a text in any script may load one of them whole, and
 * a CJK face is 5-10 MB.
 */
export const FONT_FAMILIES: readonly ManifestFamily[] = [
  // sans
  expoFamily("Inter", "sans", ALL_WEIGHTS),
  expoFamily("Roboto", "sans", ALL_WEIGHTS),
  expoFamily("Montserrat", "sans", ALL_WEIGHTS),
  expoFamily("Open Sans", "sans", "300 300i 400 400i 500 500i 600 600i 700 700i 800 800i"),
  expoFamily("Lato", "sans", "100 100i 300 300i 400 400i 700 700i 900 900i"),
  expoFamily("Poppins", "sans", ALL_WEIGHTS),
  expoFamily("Raleway", "sans", ALL_WEIGHTS),
  expoFamily("Nunito", "sans", "200 200i 300 300i 400 400i 500 500i 600 600i 700 700i 800 800i 900 900i"),
  expoFamily("DM Sans", "sans", ALL_WEIGHTS),
  expoFamily("Roboto Condensed", "sans", ALL_WEIGHTS),
  expoFamily("Noto Sans", "sans", TEXT),
  // serif
  expoFamily("Lora", "serif", "400 400i 500 500i 600 600i 700 700i"),
  expoFamily("Merriweather", "serif", "300 300i 400 400i 500 500i 600 600i 700 700i 800 800i 900 900i"),
  expoFamily("Playfair Display", "serif", "400 400i 500 500i 600 600i 700 700i 800 800i 900 900i"),
  expoFamily("EB Garamond", "serif", "400 400i 500 500i 600 600i 700 700i 800 800i"),
  expoFamily("Libre Baskerville", "serif", "400 400i 500 500i 600 600i 700 700i"),
  expoFamily("PT Serif", "serif", TEXT),
  expoFamily("Noto Serif", "serif", TEXT),
  // display
  expoFamily("Bebas Neue", "display", "400"),
  expoFamily("Oswald", "display", "200 300 400 500 600 700"),
  expoFamily("Anton", "display", "400"),
  expoFamily("Abril Fatface", "display", "400"),
  expoFamily("Lobster", "display", "400"),
  // mono
  expoFamily(
    "JetBrains Mono",
    "mono",
    "100 100i 200 200i 300 300i 400 400i 500 500i 600 600i 700 700i 800 800i",
  ),
  expoFamily("Fira Code", "mono", "300 400 500 600 700"),
  expoFamily("Space Mono", "mono", TEXT),
  // script
  expoFamily("Dancing Script", "script", "400 500 600 700"),
  expoFamily("Pacifico", "script", "400"),
  expoFamily("Great Vibes", "script", "400"),
  // handwriting
  expoFamily("Caveat", "handwriting", "400 500 600 700"),
  expoFamily("Indie Flower", "handwriting", "400"),
  expoFamily("Permanent Marker", "handwriting", "400"),
  expoFamily("Patrick Hand", "handwriting", "400"),
  // one writing system each (the fallback list)
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

/** The names of the shipped families: a family by this name is drawn from the shipped files, not an upload. */
export const SHIPPED_FAMILY_NAMES: ReadonlySet<string> = new Set(FONT_FAMILIES.map((f) => f.family));

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

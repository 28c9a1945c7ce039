import { readdir, readFile, stat } from "node:fs/promises";
import { extname, join } from "node:path";
import type { FontFace, FontSet } from "@pictor/engine";
import { loadDeferredFontSet } from "@pictor/fonts";
import { decodeFont, FontFileError } from "../adapters/media/font-file.ts";
import { UsageError } from "./usage-error.ts";

const FONT_EXTENSIONS = new Set([".ttf", ".otf", ".woff", ".woff2"]);

const isDirectory = (path: string) =>
  stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );

/**
 * The faces of the font files in `dir` (TTF, OTF, WOFF, WOFF2, read as uploads are: family, weight
 * and style from the files themselves). A file that is not a font stops the command with its name.
 */
async function facesIn(dir: string): Promise<FontFace[]> {
  const names = (await readdir(dir)).filter((n) => FONT_EXTENSIONS.has(extname(n).toLowerCase())).sort();
  return Promise.all(
    names.map(async (name) => {
      const path = join(dir, name);
      try {
        const font = await decodeFont(new Uint8Array(await readFile(path)));
        return { family: font.family, weight: font.weight, style: font.style, bytes: font.sfnt };
      } catch (error) {
        if (error instanceof FontFileError) throw new UsageError(`${path}: ${error.message}`);
        throw error;
      }
    }),
  );
}

/**
 * The shipped font set plus the fonts of `--fonts <dir>` and of the template's own `fonts/` folder
 * (offline: nothing is fetched), or undefined when there are none. A family found there is drawn
 * from those files, even when a shipped family has its name, as an account's upload is.
 */
export async function customFontSet(
  flagDir: string | undefined,
  templateDir: string,
): Promise<FontSet | undefined> {
  if (flagDir !== undefined && !(await isDirectory(flagDir))) {
    throw new UsageError(`--fonts ${flagDir} is not a directory of font files`);
  }
  const dirs = [flagDir, join(templateDir, "fonts")].filter((d): d is string => d !== undefined);
  const faces: FontFace[] = [];
  for (const dir of dirs) if (await isDirectory(dir)) faces.push(...(await facesIn(dir)));
  if (faces.length === 0) return undefined;
  const shipped = loadDeferredFontSet();
  const custom = new Set(faces.map((f) => f.family));
  return {
    ...shipped,
    faces: [...shipped.faces, ...faces],
    deferred: (shipped.deferred ?? []).filter((family) => !custom.has(family.family)),
  };
}

import { readdir, readFile } from "node:fs/promises";
import { basename, dirname, extname, join, resolve } from "node:path";
import type { TemplateDocumentT } from "../../domain/document.ts";
import { jsonStrings } from "../../domain/json-strings.ts";
import type { StarterCatalog, StarterFile } from "../../ports/starter-catalog.ts";

const IMAGE_TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".webp": "image/webp",
  ".gif": "image/gif",
};

/**
 * Example templates from a directory of `*.json` files (examples/templates). Any string in a document
 * that is a relative path to an image file next to it (e.g. "../images/desk.jpg") is a sample image
 * to import; everything else (URLs, asset refs) is left alone. Read once, then kept in memory.
 */
export function createDirectoryStarterCatalog(dir: string): StarterCatalog {
  let cached: Promise<{ document: TemplateDocumentT; files: StarterFile[] }[]> | null = null;
  return {
    load() {
      cached ??= loadAll(resolve(dir));
      return cached;
    },
  };
}

/** The starter templates' directory cannot be read (a file, a document that is not JSON…). */
export class StarterCatalogError extends Error {
  override name = "StarterCatalogError";
}

/** A directory that does not exist holds no starters (tests and benchmarks start without them). */
async function loadAll(dir: string) {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith(".json")).sort();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw new StarterCatalogError(`cannot read the starter templates in ${dir}: ${(e as Error).message}`, {
      cause: e,
    });
  }
  const out: { document: TemplateDocumentT; files: StarterFile[] }[] = [];
  for (const name of names) {
    const file = join(dir, name);
    try {
      const { document, files } = await readTemplateFile(file);
      out.push({ document: document as TemplateDocumentT, files });
    } catch (e) {
      throw new StarterCatalogError(`cannot read the starter template ${file}: ${(e as Error).message}`, {
        cause: e,
      });
    }
  }
  return out;
}

/**
 * A template document file and the images it names by a path relative to itself (a string ending
 * in an image extension that is no URL or `asset://` reference). `missing` lists the paths that name
 * no file. Throws an Error whose message says what is wrong: the file cannot be read, is not JSON,
 * or names an image path that cannot be read (a directory, say).
 */
export async function readTemplateFile(
  file: string,
): Promise<{ document: unknown; files: StarterFile[]; missing: string[] }> {
  const text = await readFile(file, "utf8");
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (e) {
    throw new Error(text.trim() === "" ? "the file is empty" : `not valid JSON (${(e as Error).message})`);
  }
  const files: StarterFile[] = [];
  const missing: string[] = [];
  for (const ref of new Set(Array.from(jsonStrings(document), (s) => s.value))) {
    const contentType = IMAGE_TYPES[extname(ref).toLowerCase()];
    if (!contentType || /^[a-z][a-z0-9+.-]*:/i.test(ref)) continue;
    const path = resolve(dirname(file), ref);
    try {
      files.push({ ref, name: basename(path), contentType, bytes: new Uint8Array(await readFile(path)) });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") {
        throw new Error(`cannot read the image ${ref} it names: ${(e as Error).message}`);
      }
      missing.push(ref);
    }
  }
  return { document, files, missing };
}

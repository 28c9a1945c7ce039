import { fail, type Result } from "../failure.ts";

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/;
const MAX_DEPTH = 10;

/**
 * Folders are stored as `a/b/` (no leading slash, one trailing slash; the root is ""), the form
 * render outputs already use (`renders/<template key>/`), so that "in folder F or below" is the
 * index range [F, F with its last "/" raised to "0"): '/' is 0x2F and '0' is 0x30.
 */
export function normalizeFolder(input: string, path: string): Result<string> {
  const trimmed = input.trim().replace(/^\/+|\/+$/g, "");
  if (trimmed === "") return { ok: true, value: "" };
  const segments = trimmed.split("/");
  if (segments.length > MAX_DEPTH) {
    return invalid(path, `A folder has at most ${MAX_DEPTH} levels.`);
  }
  for (const segment of segments) {
    if (!SEGMENT.test(segment) || segment.endsWith(" ") || /^\.+$/.test(segment)) {
      return invalid(
        path,
        `Folder segment '${segment.slice(0, 70)}' is not allowed: use letters, digits, space, '.', '_' and '-' (1-64 characters, starting with a letter or digit).`,
      );
    }
  }
  return { ok: true, value: `${segments.join("/")}/` };
}

/** Upper bound (exclusive) of the folders inside `folder`, for a range scan on the index. */
export function folderRangeEnd(folder: string): string {
  return `${folder.slice(0, -1)}0`;
}

function invalid(path: string, message: string) {
  return fail("invalid_request", message, { errors: [{ path, message }] });
}

// Plain JavaScript that every Node since 12 parses: it runs before any TypeScript source is loaded, so
// that an older Node says what is wrong instead of crashing on a `.ts` import.

/** Oldest releases that strip TypeScript types by default (22.18 on the 22 line, 23.6 after it). */
export const MINIMUM = { 22: [22, 18, 0], later: [23, 6, 0] };
export const NEEDED = "22.18 or newer (24 LTS recommended)";

/**
 * Null when this Node can run the sources, else the one line to print. `features` is
 * `process.features`: a Node started with `--no-experimental-strip-types` cannot run them either.
 */
export function nodeVersionProblem(version, features) {
  const [major, minor, patch] = String(version)
    .replace(/^v/, "")
    .split(".")
    .map((part) => Number.parseInt(part, 10) || 0);
  const minimum = major === 22 ? MINIMUM["22"] : MINIMUM.later;
  const found = [major, minor, patch];
  let tooOld = false;
  for (let i = 0; i < 3; i++) {
    if (found[i] !== minimum[i]) {
      tooOld = found[i] < minimum[i];
      break;
    }
  }
  const how = "install it from https://nodejs.org/ or with a version manager (nvm install 24)";
  if (tooOld) {
    return `pictor: Node.js ${version} cannot run Pictor; it needs Node.js ${NEEDED}, which runs the TypeScript sources directly: ${how}.`;
  }
  if (features && features.typescript === false) {
    return `pictor: Node.js ${version} was started with TypeScript type stripping turned off (--no-experimental-strip-types); Pictor needs it on: drop that flag from the command or NODE_OPTIONS.`;
  }
  return null;
}

import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

/**
 * Debian's chromium, the one browser the engine's browser side is checked against (identity test,
 * editor end-to-end test, bench:engine's screenshot baseline). playwright-core ships no browser.
 * `PICTOR_CHROMIUM` points the same tests at another build (CI reruns the editor e2e test on an older
 * Chromium that way).
 */
export const CHROMIUM = process.env.PICTOR_CHROMIUM || "/usr/bin/chromium";

export const haveChromium = existsSync(CHROMIUM);

/** Headless with nothing phoning home: background updates, sync and QUIC probes add traffic and timing noise. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

import { readFileSync } from "node:fs";

/** The version of this checkout (the workspace's package.json, which the bin ships with). */
export function pictorVersion(): string {
  const file = new URL("../../../../package.json", import.meta.url);
  return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
}

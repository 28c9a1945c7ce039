import { type ImageUrlFormat, signImageUrl } from "@pictor/client";
import type { Command } from "commander";
import { UsageError } from "./usage-error.ts";

interface UrlFlags {
  keyId?: string;
  secret?: string;
  baseUrl?: string;
  format: string;
  frame?: string;
  scale?: string;
  templateVersion?: string;
  expiresIn?: string;
  expires?: string;
  fallback?: boolean;
}

/**
 * `pictor url TEMPLATE [slot=value …]`: prints a signed on-demand image URL (docs/on-demand-urls.md).
 * Offline: signing needs only the URL-signing key's id and secret, no server and no data directory.
 */
export function registerUrlCommand(program: Command): void {
  program
    .command("url <template> [values...]")
    .description("Print a signed on-demand image URL for a published template (slot=value pairs)")
    .option("--key-id <id>", "usk_… of the URL-signing key (PICTOR_URL_KEY_ID)")
    .option(
      "--secret <secret>",
      "ussec_… of that key (prefer PICTOR_URL_SECRET: flags land in shell history)",
    )
    .option(
      "--base-url <url>",
      "where the server or its CDN is reached (PICTOR_PUBLIC_URL; default http://127.0.0.1:8080)",
    )
    .option("--format <ext>", "png, jpg or webp", "png")
    .option("--frame <name>", "template frame (default the first)")
    .option("--scale <n>", "1 to 4 (costs ceil(scale²) credits on the first request)")
    .option("--template-version <n>", "pin a published template version (the URL's v)")
    .option("--expires-in <seconds>", "the URL answers 403 after this many seconds")
    .option("--expires <unix>", "the URL answers 403 after this Unix time")
    .option("--fallback", "errors answer a small PNG instead of JSON (for <img> tags)")
    .action(async (template: string, pairs: string[], flags: UrlFlags) => {
      const keyId = flags.keyId ?? process.env.PICTOR_URL_KEY_ID;
      const secret = flags.secret ?? process.env.PICTOR_URL_SECRET;
      if (!keyId || !secret) {
        throw new UsageError(
          "give --key-id and the secret (PICTOR_URL_SECRET), from POST /v1/url-signing-keys",
        );
      }
      if (!["png", "jpg", "webp", "gif", "mp4"].includes(flags.format))
        throw new UsageError("--format must be png, jpg, webp, gif or mp4");
      const values: Record<string, string> = {};
      for (const pair of pairs) {
        const eq = pair.indexOf("=");
        if (eq <= 0) throw new UsageError(`'${pair}' is not slot=value`);
        values[pair.slice(0, eq)] = pair.slice(eq + 1);
      }
      const number = (text: string | undefined, flag: string) => {
        if (text === undefined) return undefined;
        if (!/^\d+(\.\d+)?$/.test(text)) throw new UsageError(`${flag} must be a number`);
        return Number(text);
      };
      const expiresIn = number(flags.expiresIn, "--expires-in");
      const expires =
        number(flags.expires, "--expires") ??
        (expiresIn === undefined ? undefined : Math.floor(Date.now() / 1000) + expiresIn);
      const scale = number(flags.scale, "--scale");
      const version = number(flags.templateVersion, "--template-version");
      try {
        const url = await signImageUrl({
          baseUrl: flags.baseUrl ?? process.env.PICTOR_PUBLIC_URL ?? "http://127.0.0.1:8080",
          keyId,
          secret,
          template,
          format: flags.format as ImageUrlFormat,
          values,
          ...(flags.frame !== undefined ? { frame: flags.frame } : {}),
          ...(scale !== undefined ? { scale } : {}),
          ...(version !== undefined ? { version } : {}),
          ...(expires !== undefined ? { expires } : {}),
          ...(flags.fallback ? { fallback: "image" as const } : {}),
        });
        process.stdout.write(`${url}\n`);
      } catch (error) {
        if (error instanceof TypeError) throw new UsageError(error.message);
        throw error;
      }
    });
}

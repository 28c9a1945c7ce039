import type { S3BlobStoreConfig } from "./blob-store.ts";

type Env = Record<string, string | undefined>;

export class S3ConfigError extends Error {}

/**
 * S3 settings from environment variables (docs/deploy.md), checked all at once so the operator sees
 * every missing or malformed one in a single start-up error. null when S3_BUCKET is not set (blobs
 * stay on the local filesystem). Takes the environment as a value: only the composition root reads
 * process.env.
 */
export function s3ConfigFromEnv(env: Env): S3BlobStoreConfig | null {
  const bucket = env.S3_BUCKET?.trim();
  if (!bucket) return null;
  const problems: string[] = [];
  const required = (name: string) => {
    const value = env[name]?.trim();
    if (!value) problems.push(`${name} is required when S3_BUCKET is set`);
    return value ?? "";
  };
  const region = required("S3_REGION");
  const accessKeyId = required("S3_ACCESS_KEY_ID");
  const secretAccessKey = required("S3_SECRET_ACCESS_KEY");
  // S3 bucket naming rules: 3-63 of lowercase letters, digits, dots and hyphens.
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    problems.push(
      `S3_BUCKET must be 3-63 lowercase letters, digits, '.' or '-' (got ${JSON.stringify(bucket)})`,
    );
  }
  const endpoint = env.S3_ENDPOINT?.trim() || undefined;
  if (endpoint !== undefined) {
    let url: URL | null = null;
    try {
      url = new URL(endpoint);
    } catch {}
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
      problems.push(`S3_ENDPOINT must be an http(s) URL (got ${JSON.stringify(endpoint)})`);
    }
  }
  const pathStyle = env.S3_FORCE_PATH_STYLE?.trim();
  if (pathStyle !== undefined && pathStyle !== "" && pathStyle !== "true" && pathStyle !== "false") {
    problems.push(`S3_FORCE_PATH_STYLE must be true or false (got ${JSON.stringify(pathStyle)})`);
  }
  const prefix = env.S3_PREFIX?.trim() ?? "";
  if (prefix !== "" && (prefix.startsWith("/") || !prefix.endsWith("/"))) {
    problems.push(`S3_PREFIX must not start with '/' and must end with '/' (got ${JSON.stringify(prefix)})`);
  }
  if (problems.length > 0) throw new S3ConfigError(`Invalid S3 configuration:\n  ${problems.join("\n  ")}`);
  return {
    bucket,
    region,
    accessKeyId,
    secretAccessKey,
    ...(endpoint ? { endpoint } : {}),
    ...(pathStyle === "true" || pathStyle === "false" ? { forcePathStyle: pathStyle === "true" } : {}),
    ...(prefix ? { prefix } : {}),
  };
}

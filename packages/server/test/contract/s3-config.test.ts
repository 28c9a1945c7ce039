import { describe, expect, it } from "vitest";
import { S3ConfigError, s3ConfigFromEnv } from "../../src/adapters/s3/config.ts";

const base = {
  S3_BUCKET: "pictor-prod",
  S3_REGION: "eu-central-1",
  S3_ACCESS_KEY_ID: "AKIAEXAMPLE",
  S3_SECRET_ACCESS_KEY: "secret",
};

describe("S3 configuration from the environment", () => {
  it("is off (null) without S3_BUCKET", () => {
    expect(s3ConfigFromEnv({ S3_REGION: "x" })).toBeNull();
    expect(s3ConfigFromEnv({ S3_BUCKET: "  " })).toBeNull();
  });

  it("reads a complete AWS configuration; endpoint, path style and prefix are optional", () => {
    expect(s3ConfigFromEnv(base)).toEqual({
      bucket: "pictor-prod",
      region: "eu-central-1",
      accessKeyId: "AKIAEXAMPLE",
      secretAccessKey: "secret",
    });
    expect(
      s3ConfigFromEnv({
        ...base,
        S3_ENDPOINT: "http://127.0.0.1:8080",
        S3_FORCE_PATH_STYLE: "false",
        S3_PREFIX: "tenant-a/",
      }),
    ).toMatchObject({ endpoint: "http://127.0.0.1:8080", forcePathStyle: false, prefix: "tenant-a/" });
  });

  it("names every missing or malformed setting in one error, never echoing the secret", () => {
    let error: unknown;
    try {
      s3ConfigFromEnv({
        S3_BUCKET: "Bad_Bucket",
        S3_SECRET_ACCESS_KEY: "hunter2",
        S3_ENDPOINT: "ftp://x",
        S3_FORCE_PATH_STYLE: "yes",
        S3_PREFIX: "/abs",
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(S3ConfigError);
    const message = (error as Error).message;
    for (const name of [
      "S3_REGION",
      "S3_ACCESS_KEY_ID",
      "S3_BUCKET",
      "S3_ENDPOINT",
      "S3_FORCE_PATH_STYLE",
      "S3_PREFIX",
    ]) {
      expect(message).toContain(name);
    }
    expect(message).not.toContain("S3_SECRET_ACCESS_KEY");
    expect(message).not.toContain("hunter2");
  });
});

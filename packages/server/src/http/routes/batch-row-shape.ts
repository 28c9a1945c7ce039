import { Type as T } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { type Failure, fail } from "../../domain/failure.ts";
import type { RenderRequest } from "../../domain/renders.ts";
import { formatPath, pointerSegments } from "../plugins/validation.ts";
import { RenderRequestBody } from "./render-create.ts";

const { wait: _wait, ...rowProperties } = RenderRequestBody.properties;

/** A batch row: the single-render fields, without `wait` (a batch never waits). */
export const BatchRow = T.Object(rowProperties, { additionalProperties: false });

const checkRow = TypeCompiler.Compile(BatchRow);
const checkScale = TypeCompiler.Compile(BatchRow.properties.scale);

/**
 * Checks one row's shape on its own, so a malformed row fails alone instead of failing the whole
 * request (as the route's body schema would). Same rules and error shapes as POST /v1/renders:
 * the first error, its path prefixed with `renders[i]`, and any bad `scale` is invalid_scale.
 */
export function checkBatchRow(row: unknown, index: number): RenderRequest | Failure {
  const prefix = `renders[${index}]`;
  if (typeof row === "object" && row !== null && Object.hasOwn(row, "scale")) {
    if (!checkScale.Check((row as { scale: unknown }).scale)) {
      return fail("invalid_scale", "scale must be a number from 1 to 4 inclusive.", {
        errors: [{ path: `${prefix}.scale`, message: "must be a number from 1 to 4" }],
      });
    }
  }
  if (checkRow.Check(row)) return row as RenderRequest;
  const first = checkRow.Errors(row).First();
  const path = formatPath([`renders`, String(index), ...pointerSegments(first?.path ?? "")]);
  const message = first?.message ?? "is invalid";
  return fail("invalid_request", `${path}: ${message}`, { errors: [{ path, message }] });
}

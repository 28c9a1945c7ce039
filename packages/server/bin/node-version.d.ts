/** Null when this Node can run the TypeScript sources, else the one line to print before exit 1. */
export function nodeVersionProblem(
  version: string,
  features: { typescript?: unknown } | undefined,
): string | null;
export const NEEDED: string;
export const MINIMUM: { "22": [number, number, number]; later: [number, number, number] };

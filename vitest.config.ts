import { defineConfig } from "vitest/config";

// One project per package so `vitest run --project engine` runs a package alone. Tests that start
// servers or browsers do it themselves on loopback, on a free port.
const project = (name: string, extra: Record<string, unknown> = {}) => ({
  test: {
    name,
    include: [`packages/${name}/test/**/*.test.ts`],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    ...extra,
  },
});

export default defineConfig({
  test: {
    projects: [
      project("engine"),
      project("fonts"),
      project("render-node"),
      project("server"),
      project("client"),
    ],
  },
});

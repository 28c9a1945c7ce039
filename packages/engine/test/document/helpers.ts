import { readFileSync } from "node:fs";

/** A small valid current (v4) document; each test copies it and breaks one thing. */
export function validDocument(): Record<string, unknown> & {
  slots: Record<string, unknown>[];
  frames: (Record<string, unknown> & { layers: Record<string, unknown>[] })[];
} {
  return {
    version: 4,
    key: "promo",
    name: "Promo",
    slots: [
      { name: "headline", type: "text", max_length: 40 },
      { name: "brand", type: "color", default: "#FF0066" },
      { name: "photo", type: "image" },
    ],
    frames: [
      {
        name: "post",
        width: 1080,
        height: 1080,
        background: "#FFFFFF",
        layers: [
          {
            id: "title",
            type: "text",
            x: 40,
            y: 40,
            width: 1000,
            height: 200,
            text: "Hello",
            font: { family: "Inter", weight: 700, size: 64 },
            color: "#111111",
            bind: { text: "headline" },
          },
          {
            id: "badge",
            type: "shape",
            shape: "ellipse",
            x: 800,
            y: 800,
            width: 200,
            height: 200,
            fill: "#FF0066",
            bind: { fill: "brand" },
          },
          {
            id: "group",
            type: "group",
            x: 0,
            y: 300,
            width: 1080,
            height: 400,
            layers: [
              {
                id: "photo",
                type: "image",
                x: 0,
                y: 0,
                width: 1080,
                height: 400,
                src: "",
                bind: { src: "photo" },
              },
            ],
          },
        ],
      },
    ],
  };
}

export function readJson(url: URL): unknown {
  return JSON.parse(readFileSync(url, "utf8"));
}

export const EXAMPLES_DIR = new URL("../../../../examples/templates/", import.meta.url);

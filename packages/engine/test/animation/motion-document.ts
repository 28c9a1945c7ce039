import type { TemplateDocumentT } from "@pictor/engine";

/**
 * A small animated frame (200x100, 1 s at 10 fps) using every preset and keyframes: a panel that
 * fades and slides in, a headline typed in, a number counted up, a badge scaled and turned in, a dot
 * blurred in, a bar whose width runs on keyframes, and a box fading out at the end.
 */
export function motionDocument(): TemplateDocumentT {
  return {
    version: 4,
    key: "motion",
    name: "Motion",
    slots: [
      { name: "headline", type: "text", default: "Hello motion" },
      { name: "count", type: "number", default: 1250 },
    ],
    frames: [
      {
        name: "main",
        width: 200,
        height: 100,
        background: "#F1FAEE",
        duration: 1,
        fps: 10,
        layers: [
          {
            id: "panel",
            type: "shape",
            shape: "rectangle",
            x: 10,
            y: 10,
            width: 90,
            height: 40,
            fill: "#1D3557",
            animations: [
              { preset: "fade", duration: 0.4 },
              { preset: "slide", from: "left", duration: 0.4, easing: "ease-in-out" },
            ],
          },
          {
            id: "headline",
            type: "text",
            x: 14,
            y: 16,
            width: 90,
            height: 30,
            text: "",
            color: "#FFFFFF",
            font: { family: "Inter", size: 12, weight: 700 },
            bind: { text: "headline" },
            animations: [{ preset: "typewriter", start: 0.2, duration: 0.4, easing: "linear" }],
          },
          {
            id: "count",
            type: "text",
            x: 110,
            y: 10,
            width: 80,
            height: 20,
            text: "0",
            color: "#E63946",
            font: { family: "Inter", size: 14, weight: 700 },
            bind: { text: "count" },
            format: { style: "decimal" },
            animations: [{ preset: "count_up", duration: 0.6, easing: { cubic_bezier: [0.2, 0, 0.2, 1] } }],
          },
          {
            id: "badge",
            type: "shape",
            shape: "ellipse",
            x: 120,
            y: 40,
            width: 40,
            height: 40,
            fill: "#457B9D",
            animations: [
              { preset: "scale", duration: 0.5, easing: { spring: { stiffness: 120, damping: 12 } } },
              { preset: "rotate", amount: 45, duration: 0.5 },
            ],
          },
          {
            id: "dot",
            type: "shape",
            shape: "ellipse",
            x: 170,
            y: 50,
            width: 20,
            height: 20,
            fill: "#2A9D8F",
            animations: [{ preset: "blur", amount: 8, start: 0.1, duration: 0.4 }],
          },
          {
            id: "bar",
            type: "shape",
            shape: "rectangle",
            x: 10,
            y: 70,
            width: 180,
            height: 10,
            fill: "#A8DADC",
            keyframes: {
              width: [
                { time: 0, value: 0 },
                { time: 0.6, value: 180, easing: "ease-out" },
              ],
            },
          },
          {
            id: "outro",
            type: "shape",
            shape: "rectangle",
            x: 10,
            y: 85,
            width: 60,
            height: 10,
            fill: "#E63946",
            animations: [{ preset: "fade", phase: "exit", start: 0.7, duration: 0.3 }],
          },
        ],
      },
    ],
  } as TemplateDocumentT;
}

/**
 * The reference scene (reference-scene.json) written as markup for the baselines: an object tree for
 * satori and an HTML page for Chromium. Same boxes, colours, fonts and image; kept beside each other
 * so a change to the scene is made in one place for both.
 */

export interface SceneValues {
  headline: string;
  body: string;
  /** data: URI of the source photo (baselines decode and fit it themselves on every render). */
  photo: string;
}

const box = (left: number, top: number, width: number, height: number) => ({
  position: "absolute",
  left,
  top,
  width,
  height,
});

const styles = {
  frame: { width: 1200, height: 630, background: "#0F172A", position: "relative", display: "flex" },
  photo: { ...box(600, 0, 600, 630), objectFit: "cover" },
  // #1E293BCC from the document: alpha 0xCC = 0.8.
  panel: { ...box(40, 40, 800, 550), background: "rgba(30, 41, 59, 0.8)", borderRadius: 28 },
  headline: {
    ...box(70, 80, 740, 240),
    display: "flex",
    color: "#FFFFFF",
    fontFamily: "Inter",
    fontWeight: 700,
    fontSize: 64,
    lineHeight: 1.15,
  },
  body: {
    ...box(70, 340, 740, 200),
    display: "flex",
    color: "#CBD5E1",
    fontFamily: "Inter",
    fontWeight: 400,
    fontSize: 28,
    lineHeight: 1.35,
  },
} as const;

interface Node {
  type: string;
  props: Record<string, unknown>;
}

const el = (type: string, style: object, props: Record<string, unknown> = {}): Node => ({
  type,
  props: { style, ...props },
});

/** Object tree satori accepts in place of JSX. */
export function satoriScene(values: SceneValues): Node {
  return el("div", styles.frame, {
    children: [
      el("img", styles.photo, { src: values.photo, width: 600, height: 630 }),
      el("div", styles.panel),
      el("div", styles.headline, { children: values.headline }),
      el("div", styles.body, { children: values.body }),
    ],
  });
}

const css = (style: object): string =>
  Object.entries(style)
    .map(([key, value]) => {
      const prop = key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
      const unitless = prop === "font-weight" || prop === "line-height";
      return `${prop}:${typeof value === "number" && !unitless ? `${value}px` : value}`;
    })
    .join(";");

/** A full HTML page for Chromium; fonts come in as @font-face rules with data: URIs. */
export function sceneHtml(values: SceneValues, fontFaceCss: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>
${fontFaceCss}
html,body{margin:0;padding:0;overflow:hidden}
</style></head><body>
<div style="${css(styles.frame)}">
<img style="${css(styles.photo)}" src="${values.photo}">
<div style="${css(styles.panel)}"></div>
<div id="headline" style="${css(styles.headline)}">${values.headline}</div>
<div id="body" style="${css(styles.body)}">${values.body}</div>
</div></body></html>`;
}

/** Takumi's node tree: the same boxes and styles; the photo is named by `photoSrc` and handed over as bytes. */
export function takumiScene(values: Omit<SceneValues, "photo">, photoSrc: string): TakumiNode {
  return {
    type: "container",
    style: styles.frame,
    children: [
      { type: "image", src: photoSrc, width: 600, height: 630, style: styles.photo },
      { type: "container", style: styles.panel },
      { type: "text", text: values.headline, style: styles.headline },
      { type: "text", text: values.body, style: styles.body },
    ],
  };
}

/** The subset of Takumi's node types the scene uses (a structural copy: bench code, no import of its types here). */
export type TakumiNode =
  | { type: "container"; style: object; children?: TakumiNode[] }
  | { type: "text"; text: string; style: object }
  | { type: "image"; src: string; width: number; height: number; style: object };

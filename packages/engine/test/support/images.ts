import type { ImageRequest, PreparedImage } from "@pictor/engine";

/**
 * A stand-in for the Node host's image preparation, on synthetic sources, so image goldens test the
 * engine without decoding files. `src` names a source: `gradient:WxH` (red across, blue down, a
 * 16 px grid and a white square marking the centre) or `checker:WxH` (8 px squares).
 */
function sourcePixel(
  kind: string,
  width: number,
  height: number,
  x: number,
  y: number,
): [number, number, number, number] {
  if (kind === "checker") {
    const dark = (Math.floor(x / 8) + Math.floor(y / 8)) % 2 === 0;
    return dark ? [40, 40, 60, 255] : [230, 200, 60, 255];
  }
  const cx = width / 2;
  const cy = height / 2;
  if (Math.abs(x + 0.5 - cx) < width / 10 && Math.abs(y + 0.5 - cy) < height / 10)
    return [255, 255, 255, 255];
  if (x % 16 === 0 || y % 16 === 0) return [20, 20, 20, 255];
  return [Math.round((255 * x) / width), 120, Math.round((255 * y) / height), 255];
}

function parseSource(src: string): { kind: string; width: number; height: number } {
  const match = /^(gradient|checker):(\d+)x(\d+)$/.exec(src);
  if (!match?.[1] || !match[2] || !match[3]) throw new Error(`unknown synthetic source ${src}`);
  return { kind: match[1], width: Number(match[2]), height: Number(match[3]) };
}

/** Fits a synthetic source into the request's box (nearest neighbour), as the host does with sharp. */
export function prepareSynthetic(request: ImageRequest): PreparedImage {
  const source = parseSource(request.src);
  const { width: W, height: H } = request;
  const rgba = new Uint8Array(W * H * 4);
  const sw = source.width;
  const sh = source.height;
  let scaleX = W / sw;
  let scaleY = H / sh;
  let offsetX = 0;
  let offsetY = 0;
  if (request.fit === "cover") {
    const s = Math.max(scaleX, scaleY);
    scaleX = scaleY = s;
    const visibleW = W / s;
    const visibleH = H / s;
    offsetX = Math.min(Math.max(request.focal.x * sw - visibleW / 2, 0), sw - visibleW) * s;
    offsetY = Math.min(Math.max(request.focal.y * sh - visibleH / 2, 0), sh - visibleH) * s;
  } else if (request.fit === "contain") {
    const s = Math.min(scaleX, scaleY);
    scaleX = scaleY = s;
    offsetX = -(W - sw * s) * request.focal.x;
    offsetY = -(H - sh * s) * request.focal.y;
  }
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const sx = Math.floor((x + 0.5 + offsetX) / scaleX);
      const sy = Math.floor((y + 0.5 + offsetY) / scaleY);
      if (sx < 0 || sy < 0 || sx >= sw || sy >= sh) continue;
      rgba.set(sourcePixel(source.kind, sw, sh, sx, sy), (y * W + x) * 4);
    }
  }
  return { width: W, height: H, rgba, upscaled: scaleX > 1 || scaleY > 1 };
}

export function prepareAll(requests: ImageRequest[]): Map<string, PreparedImage> {
  return new Map(requests.map((request) => [request.key, prepareSynthetic(request)]));
}

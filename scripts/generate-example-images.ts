import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { seededRandom } from "../packages/server/test/support/seeded-random.ts";

/**
 * Generates the sample photos the example templates use (we ship no third-party photos and the build has
 * no internet). Each scene is an SVG (gradients, blurred shapes) rasterised by sharp, plus seeded film
 * grain so JPEG behaves as it does on a real photo. Deterministic: same seed, same pixels.
 *
 *   node scripts/generate-example-images.ts
 */

const OUT_DIR = fileURLToPath(new URL("../examples/images/", import.meta.url));
/** Keeps the repository light: every file must stay under this. */
const MAX_BYTES = 200 * 1024;

interface Scene {
  file: string;
  width: number;
  height: number;
  svg: string;
  /** Grain amplitude, 0..255. */
  grain: number;
}

function svg(width: number, height: number, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${body}</svg>`;
}

function landscape(): Scene {
  const w = 1600;
  const h = 1200;
  const ridge = (base: number, amp: number, seed: number): string => {
    const r = seededRandom(seed);
    let d = `M0 ${h} L0 ${base}`;
    for (let x = 0; x <= w; x += 80)
      d += ` L${x} ${base - amp * (0.3 + 0.7 * r()) * Math.sin((x / w) * Math.PI * (1 + seed))}`;
    return `${d} L${w} ${h} Z`;
  };
  return {
    file: "landscape.jpg",
    width: w,
    height: h,
    grain: 10,
    svg: svg(
      w,
      h,
      `<defs>
        <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stop-color="#1d2b64"/><stop offset="0.45" stop-color="#c0587e"/><stop offset="0.62" stop-color="#f8b26a"/>
        </linearGradient>
        <radialGradient id="sun" cx="0.62" cy="0.58" r="0.35">
          <stop offset="0" stop-color="#fff4d6"/><stop offset="0.12" stop-color="#ffd27f" stop-opacity="0.9"/><stop offset="1" stop-color="#ffd27f" stop-opacity="0"/>
        </radialGradient>
        <linearGradient id="lake" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stop-color="#f2a46b"/><stop offset="1" stop-color="#2b2350"/>
        </linearGradient>
        <filter id="soft"><feGaussianBlur stdDeviation="6"/></filter>
      </defs>
      <rect width="${w}" height="${h}" fill="url(#sky)"/>
      <rect width="${w}" height="${h}" fill="url(#sun)"/>
      <path d="${ridge(620, 260, 1)}" fill="#6b4a7a" filter="url(#soft)" opacity="0.85"/>
      <path d="${ridge(680, 200, 2)}" fill="#45345e"/>
      <rect y="720" width="${w}" height="${h - 720}" fill="url(#lake)"/>
      <ellipse cx="${w * 0.62}" cy="760" rx="260" ry="10" fill="#fff1c9" opacity="0.55" filter="url(#soft)"/>
      <ellipse cx="${w * 0.62}" cy="800" rx="160" ry="6" fill="#fff1c9" opacity="0.35" filter="url(#soft)"/>
      <path d="${ridge(760, 90, 3)}" fill="#1d1733"/>`,
    ),
  };
}

function portrait(): Scene {
  const w = 1000;
  const h = 1250;
  const r = seededRandom(7);
  let bokeh = "";
  for (let i = 0; i < 28; i++) {
    const colors = ["#ffcf8a", "#ff9f7a", "#f7e3b0", "#9fd3ff"];
    bokeh += `<circle cx="${r() * w}" cy="${r() * h * 0.8}" r="${30 + r() * 90}" fill="${colors[i % 4]}" opacity="${0.15 + r() * 0.35}"/>`;
  }
  return {
    file: "portrait.jpg",
    width: w,
    height: h,
    grain: 9,
    svg: svg(
      w,
      h,
      `<defs>
        <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#3a2a4a"/><stop offset="1" stop-color="#12263a"/></linearGradient>
        <radialGradient id="skin" cx="0.4" cy="0.35" r="0.7"><stop offset="0" stop-color="#e8b48f"/><stop offset="1" stop-color="#8a5a44"/></radialGradient>
        <linearGradient id="coat" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#2f4f6f"/><stop offset="1" stop-color="#17283a"/></linearGradient>
        <linearGradient id="hair" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#3b2418"/><stop offset="1" stop-color="#1a0f0a"/></linearGradient>
        <filter id="blur"><feGaussianBlur stdDeviation="18"/></filter>
        <filter id="edge"><feGaussianBlur stdDeviation="2"/></filter>
      </defs>
      <rect width="${w}" height="${h}" fill="url(#bg)"/>
      <g filter="url(#blur)">${bokeh}</g>
      <g filter="url(#edge)">
        <path d="M180 ${h} C200 1000 330 900 500 890 C670 900 800 1000 820 ${h} Z" fill="url(#coat)"/>
        <rect x="440" y="700" width="120" height="220" rx="50" fill="#b9805f"/>
        <ellipse cx="500" cy="560" rx="175" ry="215" fill="url(#skin)"/>
        <path d="M320 560 C300 330 430 270 520 280 C650 290 720 380 690 560 C670 450 620 400 520 400 C420 400 350 450 320 560 Z" fill="url(#hair)"/>
        <ellipse cx="440" cy="560" rx="22" ry="12" fill="#3a2620" opacity="0.7"/>
        <ellipse cx="565" cy="560" rx="22" ry="12" fill="#3a2620" opacity="0.7"/>
        <path d="M450 680 Q500 710 550 680" stroke="#8c4a3c" stroke-width="9" fill="none" stroke-linecap="round"/>
      </g>
      <ellipse cx="700" cy="420" rx="60" ry="160" fill="#ffd9b0" opacity="0.12" filter="url(#blur)"/>`,
    ),
  };
}

function product(): Scene {
  const s = 1200;
  return {
    file: "product.jpg",
    width: s,
    height: s,
    grain: 6,
    svg: svg(
      s,
      s,
      `<defs>
        <radialGradient id="backdrop" cx="0.5" cy="0.35" r="0.8"><stop offset="0" stop-color="#fbe3d3"/><stop offset="1" stop-color="#d98c6a"/></radialGradient>
        <linearGradient id="floor" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#e6a27f"/><stop offset="1" stop-color="#b8694a"/></linearGradient>
        <linearGradient id="glass" x1="0" y1="0" x2="1" y2="0">
          <stop offset="0" stop-color="#5b2a3c"/><stop offset="0.25" stop-color="#a8445e"/><stop offset="0.55" stop-color="#d9697f"/><stop offset="1" stop-color="#4a1f30"/>
        </linearGradient>
        <linearGradient id="cap" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#6d5a3a"/><stop offset="0.4" stop-color="#f5dc9c"/><stop offset="1" stop-color="#7a6238"/></linearGradient>
        <filter id="shadow"><feGaussianBlur stdDeviation="22"/></filter>
        <filter id="soft"><feGaussianBlur stdDeviation="1.2"/></filter>
      </defs>
      <rect width="${s}" height="${s}" fill="url(#backdrop)"/>
      <rect y="850" width="${s}" height="350" fill="url(#floor)"/>
      <ellipse cx="620" cy="905" rx="260" ry="40" fill="#5a2a1c" opacity="0.45" filter="url(#shadow)"/>
      <circle cx="860" cy="840" r="70" fill="#f3c9a9" filter="url(#soft)"/>
      <circle cx="840" cy="815" r="40" fill="#fff3e6" opacity="0.35" filter="url(#shadow)"/>
      <g filter="url(#soft)">
        <rect x="430" y="400" width="340" height="500" rx="60" fill="url(#glass)"/>
        <rect x="470" y="430" width="40" height="420" rx="20" fill="#ffffff" opacity="0.28"/>
        <rect x="520" y="560" width="160" height="170" rx="12" fill="#f7efe6" opacity="0.9"/>
        <rect x="545" y="610" width="110" height="14" rx="7" fill="#5b2a3c"/>
        <rect x="565" y="640" width="70" height="8" rx="4" fill="#a8445e"/>
        <rect x="540" y="330" width="120" height="80" rx="10" fill="url(#cap)"/>
        <rect x="560" y="260" width="80" height="80" rx="14" fill="url(#cap)"/>
      </g>`,
    ),
  };
}

function concert(): Scene {
  const w = 1600;
  const h = 1400;
  const r = seededRandom(11);
  let crowd = "";
  for (let x = -20; x < w + 40; x += 34 + r() * 20) {
    const y = h - 120 + r() * 60;
    crowd += `<circle cx="${x}" cy="${y}" r="${22 + r() * 8}" fill="#07060d"/><rect x="${x - 34}" y="${y + 14}" width="68" height="200" rx="30" fill="#07060d"/>`;
    if (r() < 0.12)
      crowd += `<path d="M${x + 10} ${y} L${x + 30} ${y - 130}" stroke="#07060d" stroke-width="14" stroke-linecap="round"/>`;
  }
  const beam = (x: number, color: string, spread: number) =>
    `<path d="M${x} 0 L${x - spread} ${h} L${x + spread} ${h} Z" fill="url(#${color})" opacity="0.55"/>`;
  return {
    file: "concert.jpg",
    width: w,
    height: h,
    grain: 12,
    svg: svg(
      w,
      h,
      `<defs>
        <radialGradient id="stage" cx="0.5" cy="0.55" r="0.7"><stop offset="0" stop-color="#5b1a7a"/><stop offset="1" stop-color="#0b0618"/></radialGradient>
        <linearGradient id="pink" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ff4fa3"/><stop offset="1" stop-color="#ff4fa3" stop-opacity="0"/></linearGradient>
        <linearGradient id="cyan" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#4fe3ff"/><stop offset="1" stop-color="#4fe3ff" stop-opacity="0"/></linearGradient>
        <linearGradient id="gold" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ffd36b"/><stop offset="1" stop-color="#ffd36b" stop-opacity="0"/></linearGradient>
        <filter id="haze"><feGaussianBlur stdDeviation="14"/></filter>
      </defs>
      <rect width="${w}" height="${h}" fill="url(#stage)"/>
      <g filter="url(#haze)">
        ${beam(260, "pink", 240)}${beam(620, "cyan", 200)}${beam(980, "gold", 260)}${beam(1340, "pink", 220)}
        <ellipse cx="800" cy="${h * 0.62}" rx="520" ry="120" fill="#ff8ad0" opacity="0.25"/>
      </g>
      ${crowd}`,
    ),
  };
}

function desk(): Scene {
  const w = 1600;
  const h = 1000;
  return {
    file: "desk.jpg",
    width: w,
    height: h,
    grain: 8,
    svg: svg(
      w,
      h,
      `<defs>
        <linearGradient id="wood" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#c89b6d"/><stop offset="1" stop-color="#8d6240"/></linearGradient>
        <linearGradient id="screen" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#2d3b73"/><stop offset="1" stop-color="#5a7fd6"/></linearGradient>
        <radialGradient id="coffee" cx="0.5" cy="0.5" r="0.5"><stop offset="0" stop-color="#3b2314"/><stop offset="0.8" stop-color="#6b3f22"/><stop offset="1" stop-color="#f3efe9"/></radialGradient>
        <filter id="shadow"><feGaussianBlur stdDeviation="16"/></filter>
        <filter id="soft"><feGaussianBlur stdDeviation="1"/></filter>
      </defs>
      <rect width="${w}" height="${h}" fill="url(#wood)"/>
      ${Array.from({ length: 18 }, (_, i) => `<path d="M0 ${i * 60 + 12} Q800 ${i * 60 + 40} 1600 ${i * 60 + 5}" stroke="#6e4a2e" stroke-width="3" opacity="0.18" fill="none"/>`).join("")}
      <rect x="470" y="230" width="700" height="470" rx="26" fill="#000" opacity="0.35" filter="url(#shadow)"/>
      <g filter="url(#soft)">
        <rect x="450" y="200" width="700" height="470" rx="26" fill="#c9ccd3"/>
        <rect x="480" y="230" width="640" height="400" rx="10" fill="url(#screen)"/>
        <rect x="520" y="280" width="300" height="26" rx="8" fill="#ffffff" opacity="0.85"/>
        <rect x="520" y="330" width="480" height="14" rx="7" fill="#ffffff" opacity="0.5"/>
        <rect x="520" y="360" width="420" height="14" rx="7" fill="#ffffff" opacity="0.5"/>
        <rect x="520" y="420" width="250" height="150" rx="12" fill="#ffb36b" opacity="0.85"/>
        <rect x="800" y="420" width="250" height="150" rx="12" fill="#7be0c3" opacity="0.85"/>
      </g>
      <circle cx="1330" cy="300" r="100" fill="#000" opacity="0.3" filter="url(#shadow)"/>
      <circle cx="1320" cy="285" r="95" fill="url(#coffee)"/>
      <rect x="130" y="540" width="260" height="340" rx="10" fill="#000" opacity="0.3" filter="url(#shadow)" transform="rotate(-8 260 710)"/>
      <rect x="120" y="520" width="260" height="340" rx="10" fill="#f4efe4" transform="rotate(-8 250 690)"/>
      ${[0, 1, 2, 3, 4, 5].map((i) => `<rect x="150" y="${570 + i * 40}" width="${190 - (i % 3) * 30}" height="6" rx="3" fill="#9aa3b5" transform="rotate(-8 250 690)"/>`).join("")}
      ${[
        [200, 170, 70],
        [280, 130, 60],
        [250, 230, 55],
        [170, 110, 50],
      ]
        .map(([x, y, r]) => `<circle cx="${x}" cy="${y}" r="${r}" fill="#3f7d4e" opacity="0.9"/>`)
        .join("")}
      <circle cx="220" cy="170" r="40" fill="#6fae6a" opacity="0.7"/>`,
    ),
  };
}

function emblem(): Scene {
  const s = 800;
  const c = s / 2;
  const star = (r1: number, r2: number) =>
    Array.from({ length: 10 }, (_, i) => {
      const r = i % 2 === 0 ? r1 : r2;
      const a = (Math.PI / 5) * i - Math.PI / 2;
      return `${c + r * Math.cos(a)},${c + r * Math.sin(a)}`;
    }).join(" ");
  const teeth = Array.from({ length: 36 }, (_, i) => {
    const a = (Math.PI / 18) * i;
    return `<circle cx="${c + 300 * Math.cos(a)}" cy="${c + 300 * Math.sin(a)}" r="26" fill="#b8862b"/>`;
  }).join("");
  return {
    file: "emblem.jpg",
    width: s,
    height: s,
    grain: 4,
    svg: svg(
      s,
      s,
      `<defs>
        <radialGradient id="gold" cx="0.4" cy="0.35" r="0.75"><stop offset="0" stop-color="#ffe9a8"/><stop offset="0.6" stop-color="#d4a23c"/><stop offset="1" stop-color="#8a5f1a"/></radialGradient>
        <radialGradient id="paper" cx="0.5" cy="0.5" r="0.7"><stop offset="0" stop-color="#fffdf6"/><stop offset="1" stop-color="#efe6d0"/></radialGradient>
        <filter id="shadow"><feGaussianBlur stdDeviation="10"/></filter>
      </defs>
      <rect width="${s}" height="${s}" fill="url(#paper)"/>
      <circle cx="${c + 8}" cy="${c + 12}" r="320" fill="#6b4a14" opacity="0.35" filter="url(#shadow)"/>
      ${teeth}
      <circle cx="${c}" cy="${c}" r="300" fill="url(#gold)"/>
      <circle cx="${c}" cy="${c}" r="250" fill="none" stroke="#fff2c4" stroke-width="6" opacity="0.8"/>
      <circle cx="${c}" cy="${c}" r="230" fill="none" stroke="#8a5f1a" stroke-width="3"/>
      <polygon points="${star(150, 62)}" fill="#fff6d8" opacity="0.95"/>
      <polygon points="${star(120, 50)}" fill="#c8922e"/>`,
    ),
  };
}

async function render(scene: Scene, seed: number): Promise<Buffer> {
  const next = seededRandom(seed);
  const grain = Buffer.alloc(scene.width * scene.height * 4);
  for (let i = 0; i < grain.length; i += 4) {
    const v = 128 + Math.round((next() - 0.5) * 2 * scene.grain);
    grain[i] = v;
    grain[i + 1] = v;
    grain[i + 2] = v;
    grain[i + 3] = 255;
  }
  const grainPng = await sharp(grain, { raw: { width: scene.width, height: scene.height, channels: 4 } })
    .png()
    .toBuffer();
  return sharp(Buffer.from(scene.svg))
    .resize(scene.width, scene.height)
    .composite([{ input: grainPng, blend: "overlay" }])
    .flatten({ background: "#ffffff" })
    .jpeg({ quality: 85, mozjpeg: true, chromaSubsampling: "4:2:0" })
    .toBuffer();
}

mkdirSync(OUT_DIR, { recursive: true });
const scenes = [landscape(), portrait(), product(), concert(), desk(), emblem()];
for (const [i, scene] of scenes.entries()) {
  const jpeg = await render(scene, 1000 + i);
  if (jpeg.length > MAX_BYTES) throw new Error(`${scene.file} is ${jpeg.length} bytes, over ${MAX_BYTES}`);
  writeFileSync(`${OUT_DIR}${scene.file}`, jpeg);
  console.log(`${scene.file}  ${scene.width}x${scene.height}  ${(jpeg.length / 1024).toFixed(1)} KB`);
}

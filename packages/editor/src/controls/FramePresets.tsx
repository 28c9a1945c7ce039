import { useState } from "react";

export const PRESETS = [
  { name: "og", label: "Open Graph 1200×630", width: 1200, height: 630 },
  { name: "square", label: "Square post 1080×1080", width: 1080, height: 1080 },
  { name: "portrait", label: "Portrait post 4:5 1080×1350", width: 1080, height: 1350 },
  { name: "story", label: "Story 1080×1920", width: 1080, height: 1920 },
  { name: "banner", label: "X header 1500×500", width: 1500, height: 500 },
];

/**
 * "Add frame" menu: size presets or a custom size, empty or as a resized copy of an existing frame
 * (its layers scaled and placed proportionally, bindings kept).
 */
export function FramePresets({
  frames,
  onAdd,
}: {
  frames: readonly { name: string }[];
  onAdd(width: number, height: number, name: string, from: number | null): void;
}) {
  const [open, setOpen] = useState(false);
  const [from, setFrom] = useState("");
  const source = from === "" ? null : Number(from);
  const [w, setW] = useState("800");
  const [h, setH] = useState("600");
  const valid = (v: string) => Number.isInteger(Number(v)) && Number(v) >= 1 && Number(v) <= 8000;
  return (
    <div className="menu-wrap">
      <button type="button" className="btn small" data-testid="add-frame" onClick={() => setOpen(!open)}>
        + Frame
      </button>
      {open && (
        <div className="menu" data-testid="frame-menu">
          <label className="menu-from">
            Start from
            <select data-testid="frame-from" value={from} onChange={(e) => setFrom(e.target.value)}>
              <option value="">Empty frame</option>
              {frames.map((f, i) => (
                <option key={f.name} value={i}>
                  Copy of {f.name}, resized
                </option>
              ))}
            </select>
          </label>
          {PRESETS.map((p) => (
            <button
              key={p.name}
              type="button"
              data-testid={`preset-${p.width}x${p.height}`}
              onClick={() => {
                onAdd(p.width, p.height, p.name, source);
                setOpen(false);
              }}
            >
              {p.label}
            </button>
          ))}
          <div className="menu-custom">
            <input aria-label="Custom width" value={w} onChange={(e) => setW(e.target.value)} />
            <span>×</span>
            <input aria-label="Custom height" value={h} onChange={(e) => setH(e.target.value)} />
            <button
              type="button"
              className="btn small"
              disabled={!valid(w) || !valid(h)}
              onClick={() => {
                onAdd(Number(w), Number(h), "custom", source);
                setOpen(false);
              }}
            >
              Add
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

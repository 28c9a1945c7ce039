import { useState } from "react";
import { FRAME_SIZES } from "../model/frame-sizes.ts";

type Size = { width: number; height: number; name: string };

/**
 * "Add frame" menu: a size preset (one click), several presets at once (ticked, then "Add sizes")
 * or a custom size, empty or as a copy of an existing frame with its layers placed by their
 * constraints (bindings kept).
 */
export function FramePresets({
  frames,
  onAdd,
}: {
  frames: readonly { name: string }[];
  onAdd(sizes: readonly Size[], from: number | null): void;
}) {
  const [open, setOpen] = useState(false);
  const [from, setFrom] = useState("");
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const source = from === "" ? null : Number(from);
  const [w, setW] = useState("800");
  const [h, setH] = useState("600");
  const valid = (v: string) => Number.isInteger(Number(v)) && Number(v) >= 1 && Number(v) <= 8000;
  const add = (sizes: readonly Size[]) => {
    onAdd(sizes, source);
    setPicked(new Set());
    setOpen(false);
  };
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
          {FRAME_SIZES.map((p) => (
            <div key={p.name} className="menu-size">
              <input
                type="checkbox"
                aria-label={`Pick ${p.label}`}
                data-testid={`pick-${p.width}x${p.height}`}
                checked={picked.has(p.name)}
                onChange={(e) => {
                  const next = new Set(picked);
                  if (e.target.checked) next.add(p.name);
                  else next.delete(p.name);
                  setPicked(next);
                }}
              />
              <button type="button" data-testid={`preset-${p.width}x${p.height}`} onClick={() => add([p])}>
                {p.label}
              </button>
            </div>
          ))}
          <button
            type="button"
            className="btn small"
            data-testid="add-sizes"
            disabled={picked.size === 0}
            onClick={() => add(FRAME_SIZES.filter((p) => picked.has(p.name)))}
          >
            Add {picked.size === 1 ? "1 size" : `${picked.size} sizes`}
          </button>
          <div className="menu-custom">
            <input aria-label="Custom width" value={w} onChange={(e) => setW(e.target.value)} />
            <span>×</span>
            <input aria-label="Custom height" value={h} onChange={(e) => setH(e.target.value)} />
            <button
              type="button"
              className="btn small"
              disabled={!valid(w) || !valid(h)}
              onClick={() => add([{ width: Number(w), height: Number(h), name: "custom" }])}
            >
              Add
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

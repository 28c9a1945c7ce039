import type { Box } from "../model/geometry.ts";

const HANDLES: [number, number][] = [
  [-1, -1],
  [0, -1],
  [1, -1],
  [1, 0],
  [1, 1],
  [0, 1],
  [-1, 1],
  [-1, 0],
];

const CURSORS = ["ns-resize", "nesw-resize", "ew-resize", "nwse-resize"];

function cursorFor(sx: number, sy: number, rotation: number): string {
  const base = (Math.atan2(sy, sx) * 180) / Math.PI + rotation;
  const idx = Math.round(((((base + 90) % 180) + 180) % 180) / 45) % 4;
  return CURSORS[idx] ?? "move";
}

interface Props {
  box: Box;
  zoom: number;
  multiple: boolean;
  onHandleDown(e: React.PointerEvent, sx: number, sy: number): void;
  onRotateDown(e: React.PointerEvent): void;
}

/** The selection's frame: 8 resize handles and the rotation handle (one layer or a multi-selection). */
export function SelectionHandles({ box, zoom, multiple, onHandleDown, onRotateDown }: Props) {
  return (
    <div
      className={`selection ${multiple ? "multiple" : ""}`}
      data-testid="selection-box"
      style={{
        left: box.x * zoom,
        top: box.y * zoom,
        width: box.width * zoom,
        height: box.height * zoom,
        transform: `rotate(${box.rotation}deg)`,
      }}
    >
      <div className="rotate-stem" />
      <div
        className="handle rotate"
        data-testid="handle-rotate"
        onPointerDown={onRotateDown}
        title="Rotate (Shift: free angle)"
      />
      {HANDLES.map(([sx, sy]) => (
        <div
          key={`${sx},${sy}`}
          className="handle"
          data-testid={`handle-${sx},${sy}`}
          style={{
            left: `${(sx + 1) * 50}%`,
            top: `${(sy + 1) * 50}%`,
            cursor: cursorFor(sx, sy, box.rotation),
          }}
          onPointerDown={(e) => onHandleDown(e, sx, sy)}
        />
      ))}
    </div>
  );
}

/** Thin outlines of each member of a multi-selection. */
export function MemberOutlines({ boxes, zoom }: { boxes: readonly Box[]; zoom: number }) {
  return (
    <>
      {boxes.map((b, i) => (
        <div
          // biome-ignore lint/suspicious/noArrayIndexKey: outlines have no identity of their own
          key={i}
          className="selection-member"
          data-testid="selection-member"
          style={{
            left: b.x * zoom,
            top: b.y * zoom,
            width: b.width * zoom,
            height: b.height * zoom,
            transform: `rotate(${b.rotation}deg)`,
          }}
        />
      ))}
    </>
  );
}

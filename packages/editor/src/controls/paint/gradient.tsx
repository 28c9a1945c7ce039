import { type KeyboardEvent, type PointerEvent, useRef, useState } from "react";
import type { GradientT, SlotT } from "../../engine/engine-types.ts";
import { cssPaint } from "../../model/paint-view.ts";
import { shiftStopBindings } from "../../model/stop-bindings.ts";
import { BindSelect } from "../BindSelect.tsx";
import { ColorField, NumberField, SelectField } from "../fields.tsx";

export type { GradientT };

type Stop = GradientT["stops"][number];
/** New bindings of the layer, applied in the same edit as the paint. */
export interface Rebind {
  bind: Record<string, string> | undefined;
}

interface Props {
  label: string;
  testId: string;
  value: GradientT;
  /** With `rebind` when stop colour bindings move too (a stop added or removed): one edit. */
  onChange(value: GradientT, rebind?: Rebind): void;
  /** Property path of the paint (`fill`): its stops bind as `fill.stops[i].color`. */
  bindProp?: string;
  slots?: readonly SlotT[];
  bind?: Record<string, string>;
  onBind?(bind: Record<string, string> | undefined): void;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** Where a stop may go: between its neighbours, so the stops stay in ascending order. */
function clampOffset(stops: readonly Stop[], index: number, offset: number): number {
  const low = stops[index - 1]?.offset ?? 0;
  const high = stops[index + 1]?.offset ?? 1;
  return round(Math.min(high, Math.max(low, offset)));
}

/**
 * A gradient paint: linear (angle) or radial (centre, radius), with its stops on a bar. A stop is a
 * button: drag it along the bar, or focus it and use the arrow keys (Shift: 10 %); Delete removes it.
 * A click on the bar adds a stop there. The selected stop's colour, offset and slot binding are below.
 */
export function GradientEditor({ label, testId, value, onChange, bindProp, slots, bind, onBind }: Props) {
  const bar = useRef<HTMLDivElement>(null);
  const [selected, setSelected] = useState(0);
  const dragging = useRef<number | null>(null);
  /** Where the dragged stop was last put (client x). */
  const dragX = useRef(0);
  const stops = value.stops;
  const current = Math.min(selected, stops.length - 1);
  const stop = stops[current];

  const setStops = (next: Stop[]) => onChange({ ...value, stops: next });
  const moveStop = (index: number, offset: number) =>
    setStops(stops.map((s, i) => (i === index ? { ...s, offset: clampOffset(stops, index, offset) } : s)));
  const offsetAt = (clientX: number) => {
    const rect = bar.current?.getBoundingClientRect();
    if (!rect || rect.width === 0) return 0;
    return Math.min(1, Math.max(0, (clientX - rect.left) / rect.width));
  };
  const addStop = (offset: number) => {
    if (stops.length >= 16) return;
    const at = stops.findIndex((s) => s.offset > offset);
    const index = at < 0 ? stops.length : at;
    const color = (stops[Math.max(0, index - 1)] ?? stops[0])?.color ?? "#000000";
    const next = [...stops.slice(0, index), { offset: round(offset), color }, ...stops.slice(index)];
    // Stops after the new one move up an index: so do their colour bindings.
    onChange(
      { ...value, stops: next },
      bindProp ? { bind: shiftStopBindings(bind, bindProp, index, 1) } : undefined,
    );
    setSelected(index);
  };
  const removeStop = (index: number) => {
    if (stops.length <= 2) return;
    onChange(
      { ...value, stops: stops.filter((_, i) => i !== index) },
      bindProp ? { bind: shiftStopBindings(bind, bindProp, index, -1) } : undefined,
    );
    setSelected(Math.max(0, index - 1));
  };

  const onStopKey = (e: KeyboardEvent, index: number) => {
    const s = stops[index];
    if (!s) return;
    const step = e.shiftKey ? 0.1 : 0.01;
    if (e.key === "ArrowLeft" || e.key === "ArrowDown") moveStop(index, s.offset - step);
    else if (e.key === "ArrowRight" || e.key === "ArrowUp") moveStop(index, s.offset + step);
    else if (e.key === "Delete" || e.key === "Backspace") removeStop(index);
    else return;
    e.preventDefault();
    e.stopPropagation();
  };
  const onStopDown = (e: PointerEvent<HTMLButtonElement>, index: number) => {
    e.stopPropagation();
    setSelected(index);
    dragging.current = index;
    dragX.current = e.clientX;
    e.currentTarget.setPointerCapture(e.pointerId);
  };
  const onStopMove = (e: PointerEvent<HTMLButtonElement>, index: number) => {
    if (dragging.current !== index) return;
    dragX.current = e.clientX;
    moveStop(index, offsetAt(e.clientX));
  };
  /** The release position is where the stop stays, whether or not a pointermove reported it. */
  const onStopUp = (e: PointerEvent<HTMLButtonElement>, index: number) => {
    if (dragging.current !== index) return;
    dragging.current = null;
    if (e.clientX !== dragX.current) moveStop(index, offsetAt(e.clientX));
  };

  return (
    <div className="gradient-editor" data-testid={`${testId}-gradient`}>
      {value.type === "linear" ? (
        <NumberField
          label="Angle °"
          testId={`${testId}-angle`}
          value={value.angle ?? 180}
          min={-360}
          max={360}
          onChange={(angle) => angle !== undefined && onChange({ ...value, angle })}
        />
      ) : (
        <div className="grid3">
          <NumberField
            label="Centre X"
            testId={`${testId}-cx`}
            value={value.center?.x ?? 0.5}
            min={-1}
            max={2}
            step={0.05}
            onChange={(x) =>
              x !== undefined && onChange({ ...value, center: { x, y: value.center?.y ?? 0.5 } })
            }
          />
          <NumberField
            label="Centre Y"
            testId={`${testId}-cy`}
            value={value.center?.y ?? 0.5}
            min={-1}
            max={2}
            step={0.05}
            onChange={(y) =>
              y !== undefined && onChange({ ...value, center: { x: value.center?.x ?? 0.5, y } })
            }
          />
          <NumberField
            label="Radius"
            testId={`${testId}-radius`}
            value={value.radius ?? 0.5}
            min={0.01}
            max={10}
            step={0.05}
            onChange={(radius) => radius !== undefined && onChange({ ...value, radius })}
          />
          <SelectField
            label="Shape"
            testId={`${testId}-shape`}
            value={value.shape ?? "circle"}
            options={["circle", "ellipse"] as const}
            onChange={(shape) => onChange({ ...value, shape })}
          />
        </div>
      )}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the bar's keyboard equivalent is "Add stop" */}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: the bar's keyboard equivalent is "Add stop" */}
      <div
        ref={bar}
        className="gradient-bar"
        data-testid={`${testId}-bar`}
        style={{ background: cssPaint({ type: "linear", angle: 90, stops }) }}
        onClick={(e) => e.target === e.currentTarget && addStop(offsetAt(e.clientX))}
      >
        {stops.map((s, i) => (
          <button
            // biome-ignore lint/suspicious/noArrayIndexKey: stops are identified by their position
            key={i}
            type="button"
            className={`gradient-stop ${i === current ? "selected" : ""}`}
            style={{ left: `${s.offset * 100}%`, background: s.color }}
            aria-label={`${label} stop ${i + 1}, ${Math.round(s.offset * 100)}%, ${s.color}`}
            aria-pressed={i === current}
            data-testid={`${testId}-stop-${i}`}
            onPointerDown={(e) => onStopDown(e, i)}
            onPointerMove={(e) => onStopMove(e, i)}
            onPointerUp={(e) => onStopUp(e, i)}
            onPointerCancel={() => {
              dragging.current = null;
            }}
            // A press inside a document selection must not turn into a native drag of it.
            onDragStart={(e) => dragging.current !== null && e.preventDefault()}
            onFocus={() => setSelected(i)}
            onKeyDown={(e) => onStopKey(e, i)}
          />
        ))}
      </div>
      {stop && (
        <div className="gradient-stop-form">
          <div className="grid2">
            <ColorField
              label={`Stop ${current + 1} colour`}
              testId={`${testId}-stop-color`}
              value={stop.color}
              onChange={(color) =>
                color && setStops(stops.map((s, i) => (i === current ? { ...s, color } : s)))
              }
            />
            <NumberField
              label="Position"
              testId={`${testId}-stop-offset`}
              value={stop.offset}
              min={0}
              max={1}
              step={0.01}
              onChange={(o) => o !== undefined && moveStop(current, o)}
            />
          </div>
          {bindProp && slots && onBind && (
            <BindSelect
              prop={`${bindProp}.stops[${current}].color`}
              type="color"
              label={`Stop ${current + 1} slot`}
              slots={slots}
              bind={bind}
              onChange={onBind}
            />
          )}
          <div className="row">
            <button
              type="button"
              className="btn small"
              disabled={stops.length >= 16}
              onClick={() => {
                const next = stops[current + 1]?.offset ?? 1;
                addStop((stop.offset + next) / 2);
              }}
            >
              Add stop
            </button>
            <button
              type="button"
              className="btn small ghost"
              disabled={stops.length <= 2}
              onClick={() => removeStop(current)}
            >
              Remove stop
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

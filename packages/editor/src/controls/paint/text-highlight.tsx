import type { SlotT, TextLayerT } from "../../engine/engine-types.ts";
import { CheckField, NumberField } from "../fields.tsx";
import type { Rebind } from "./gradient.tsx";
import { PaintEditor } from "./paint.tsx";

type Highlight = NonNullable<TextLayerT["highlight"]>;

interface Props {
  value: Highlight | undefined;
  slots: readonly SlotT[];
  bind: Record<string, string> | undefined;
  onChange(value: Highlight | undefined, rebind?: Rebind): void;
  onBind(bind: Record<string, string> | undefined): void;
}

/** A text layer's highlight: a band behind each line (paint, padding on each axis, corner radius, kept inside the box or not). */
export function HighlightEditor({ value, slots, bind, onChange, onBind }: Props) {
  return (
    <div data-testid="highlight-editor">
      <CheckField
        label="Highlight"
        testId="highlight-on"
        value={value !== undefined}
        onChange={(on) => {
          if (on) return onChange({ color: "#FDE047", padding: 4 });
          const rest = Object.fromEntries(
            Object.entries(bind ?? {}).filter(([p]) => !p.startsWith("highlight.color")),
          );
          onChange(undefined, { bind: Object.keys(rest).length > 0 ? rest : undefined });
        }}
      />
      {value && (
        <>
          <PaintEditor
            label="Highlight colour"
            testId="prop-highlight.color"
            value={value.color}
            onChange={(color, rebind) => color !== null && onChange({ ...value, color }, rebind)}
            bindProp="highlight.color"
            slots={slots}
            bind={bind}
            onBind={onBind}
          />
          <div className="grid2">
            <NumberField
              label="Padding"
              testId="prop-highlight.padding"
              value={value.padding ?? 4}
              min={0}
              max={500}
              onChange={(padding) => padding !== undefined && onChange({ ...value, padding })}
            />
            <NumberField
              label="Padding across"
              testId="prop-highlight.padding_x"
              value={value.padding_x ?? value.padding ?? 4}
              min={0}
              max={500}
              onChange={(padding_x) => padding_x !== undefined && onChange({ ...value, padding_x })}
            />
            <NumberField
              label="Padding down"
              testId="prop-highlight.padding_y"
              value={value.padding_y ?? value.padding ?? 4}
              min={0}
              max={500}
              onChange={(padding_y) => padding_y !== undefined && onChange({ ...value, padding_y })}
            />
            <NumberField
              label="Band radius"
              testId="prop-highlight.radius"
              value={value.corner_radius ?? 0}
              min={0}
              max={500}
              onChange={(r) => r !== undefined && onChange({ ...value, corner_radius: r })}
            />
          </div>
          <CheckField
            label="Keep the band inside the box"
            testId="prop-highlight.bounds"
            value={value.bounds === "box"}
            onChange={(inside) => {
              const { bounds: _bounds, ...rest } = value;
              onChange(inside ? { ...rest, bounds: "box" } : rest);
            }}
          />
        </>
      )}
    </div>
  );
}

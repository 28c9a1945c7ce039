import { BindSelect } from "../controls/BindSelect.tsx";
import { TextField } from "../controls/fields.tsx";
import type { Rebind } from "../controls/paint/gradient.tsx";
import { PaintEditor } from "../controls/paint/paint.tsx";
import type { PaintT, SlotT } from "../engine/engine-types.ts";

/**
 * What QR codes and barcodes share: a value bindable to a text slot, and a dark colour over an
 * optional background (null: transparent). Not a layer type: the pieces qr.tsx and barcode.tsx use.
 */
interface CodedLike {
  value: string;
  color?: PaintT;
  background?: PaintT | null;
  bind?: Record<string, string>;
}

interface Props {
  layer: CodedLike;
  slots: readonly SlotT[];
  valueLabel: string;
  defaultColor: string;
  onChange(patch: Partial<CodedLike>, key: string): void;
}

const rebound = (rebind: Rebind | undefined) => (rebind ? { bind: rebind.bind } : {});

export function CodedValueFields({ layer, slots, valueLabel, defaultColor, onChange }: Props) {
  const onBind = (bind: Record<string, string> | undefined) => onChange({ bind }, "bind");
  return (
    <>
      <TextField
        label={valueLabel}
        testId="prop-value"
        value={layer.value}
        onChange={(value) => onChange({ value }, "value")}
      />
      <BindSelect prop="value" type="text" slots={slots} bind={layer.bind} onChange={onBind} />
      <PaintEditor
        label="Colour"
        testId="prop-color"
        value={layer.color ?? defaultColor}
        onChange={(color, rebind) => color !== null && onChange({ color, ...rebound(rebind) }, "color")}
        bindProp="color"
        slots={slots}
        bind={layer.bind}
        onBind={onBind}
      />
      <PaintEditor
        label="Background"
        testId="prop-background"
        nullable
        value={layer.background === undefined ? "#FFFFFF" : layer.background}
        onChange={(background, rebind) => onChange({ background, ...rebound(rebind) }, "background")}
        bindProp="background"
        slots={slots}
        bind={layer.bind}
        onBind={onBind}
      />
    </>
  );
}

import type { FramePrintT } from "@pictor/engine";
import { useEditor } from "../store/use-editor.ts";
import { CheckField, NumberField, SelectField, TextField } from "./fields.tsx";

const PAGES = ["none", "A3", "A4", "A5", "A6", "letter", "legal", "tabloid", "custom"] as const;
type PageChoice = (typeof PAGES)[number];

interface Props {
  value: FramePrintT | undefined;
  /** `size`: the frame's pixel size the print page needs at its resolution, when it states one. */
  onChange(value: FramePrintT | undefined, size?: { width: number; height: number }): void;
}

/**
 * A frame's print page for PDFs: size (named or custom), orientation, bleed, resolution, crop marks,
 * title and author. With a resolution, every change also sizes the frame for its page (the engine's
 * printPixelSize, as validation checks it).
 */
export function FramePrintFields({ value, onChange: change }: Props) {
  const pixelSize = useEditor((s) => s.engine?.module.printPixelSize);
  const onChange = (next: FramePrintT | undefined) => {
    const size = next === undefined ? null : (pixelSize?.(next) ?? null);
    change(next, size ?? undefined);
  };
  const page = value?.page;
  const choice: PageChoice = page === undefined ? "none" : typeof page === "string" ? page : "custom";
  const set = (patch: Partial<FramePrintT>) => value && onChange({ ...value, ...patch });
  return (
    <div className="frame-print" data-testid="frame-print">
      <SelectField<PageChoice>
        label="Print page (PDF)"
        testId="frame-print-page"
        value={choice}
        options={PAGES}
        onChange={(next) => {
          if (next === "none") return onChange(undefined);
          const nextPage: FramePrintT["page"] =
            next === "custom" ? { width: 85, height: 55, unit: "mm" } : next;
          onChange({ ...(value ?? {}), page: nextPage });
        }}
      />
      {value && typeof value.page === "object" && (
        <div className="grid3">
          <NumberField
            label="Width"
            value={value.page.width}
            min={0.1}
            max={5000}
            onChange={(width) =>
              width !== undefined && typeof value.page === "object" && set({ page: { ...value.page, width } })
            }
          />
          <NumberField
            label="Height"
            value={value.page.height}
            min={0.1}
            max={5000}
            onChange={(height) =>
              height !== undefined &&
              typeof value.page === "object" &&
              set({ page: { ...value.page, height } })
            }
          />
          <SelectField
            label="Unit"
            value={value.page.unit}
            options={["mm", "in"] as const}
            onChange={(unit) => typeof value.page === "object" && set({ page: { ...value.page, unit } })}
          />
        </div>
      )}
      {value && (
        <>
          <div className="grid2">
            <SelectField
              label="Orientation"
              testId="frame-print-orientation"
              value={value.orientation ?? "portrait"}
              options={["portrait", "landscape"] as const}
              onChange={(orientation) => set({ orientation })}
            />
            <NumberField
              label="Bleed"
              testId="frame-print-bleed"
              value={value.bleed ?? 0}
              min={0}
              max={100}
              onChange={(bleed) => bleed !== undefined && set({ bleed })}
            />
          </div>
          <NumberField
            label="Resolution (dpi; sizes the frame)"
            testId="frame-print-dpi"
            value={value.dpi}
            optional
            min={10}
            max={2400}
            step={1}
            onChange={(dpi) => {
              const { dpi: _dpi, ...rest } = value;
              onChange(dpi === undefined ? rest : { ...rest, dpi });
            }}
          />
          <CheckField
            label="Crop marks"
            testId="frame-print-marks"
            value={value.crop_marks === true}
            onChange={(crop_marks) => set({ crop_marks })}
          />
          <TextField
            label="PDF title"
            value={value.title ?? ""}
            onChange={(title) => set({ title: title || undefined })}
          />
          <TextField
            label="PDF author"
            value={value.author ?? ""}
            onChange={(author) => set({ author: author || undefined })}
          />
        </>
      )}
    </div>
  );
}

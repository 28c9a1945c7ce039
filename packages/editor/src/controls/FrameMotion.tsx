import type { FrameT } from "../engine/engine-types.ts";
import { NumberField } from "./fields.tsx";

type Motion = Pick<FrameT, "duration" | "fps" | "poster">;

interface Props {
  frame: FrameT;
  onChange(patch: Motion, coalesceKey: string): void;
}

/**
 * A frame's motion: a duration makes it animated (its layers then show their animation controls and
 * a timeline appears under it); fps (default 30) and the poster moment a still render draws
 * (default: the end of the enter animations). Duration x fps must be a whole number of frames,
 * which the document's validation says when it is not.
 */
export function FrameMotionFields({ frame, onChange }: Props) {
  const animated = frame.duration !== undefined;
  return (
    <div className="grid3" data-testid="frame-motion">
      <NumberField
        label="Duration (s)"
        testId="frame-duration"
        value={frame.duration}
        min={0.01}
        max={60}
        step={0.5}
        optional
        placeholder="still"
        onChange={(duration) =>
          onChange(
            duration === undefined ? { duration, fps: undefined, poster: undefined } : { duration },
            "frame-duration",
          )
        }
      />
      {animated && (
        <>
          <NumberField
            label="fps"
            testId="frame-fps"
            value={frame.fps}
            min={1}
            max={60}
            step={1}
            optional
            placeholder="30"
            onChange={(fps) =>
              onChange({ fps: fps === undefined ? undefined : Math.round(fps) }, "frame-fps")
            }
          />
          <NumberField
            label="Poster (s)"
            testId="frame-poster"
            value={frame.poster}
            min={0}
            max={frame.duration}
            step={0.05}
            optional
            placeholder="auto"
            onChange={(poster) => onChange({ poster }, "frame-poster")}
          />
        </>
      )}
    </div>
  );
}

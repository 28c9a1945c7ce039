// Characters that can start an emoji presentation; text without any of them takes the fast path.
const MAYBE_EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\uFE0F|\u20E3/u;
const EMOJI_GRAPHEME =
  /^(?:\p{Emoji_Presentation}|\p{Regional_Indicator}|\p{Extended_Pictographic}.*\u200D|.*\uFE0F|.*\u20E3)/su;

let graphemes: Intl.Segmenter | undefined;

export interface TextRun {
  text: string;
  emoji: boolean;
}

/**
 * Splits text into runs of emoji-presentation graphemes and other text. Paragraph picks the first
 * family in the list that has a code point, ignoring U+FE0F, so "❤️" would come out as Noto Sans's
 * black text heart; emoji runs get the emoji family first instead.
 */
export function splitEmojiRuns(text: string): TextRun[] {
  if (!MAYBE_EMOJI.test(text)) return [{ text, emoji: false }];
  graphemes ??= new Intl.Segmenter("en", { granularity: "grapheme" });
  const runs: TextRun[] = [];
  for (const { segment } of graphemes.segment(text)) {
    const emoji = EMOJI_GRAPHEME.test(segment);
    const last = runs.at(-1);
    if (last && last.emoji === emoji) last.text += segment;
    else runs.push({ text: segment, emoji });
  }
  return runs;
}

import type { LocalizedText } from './localized-text.js';

/**
 * Press-on nails come in numbered sizes, 0 the widest; a set needs one size for each of the ten
 * fingers. The shop has one size chart (the admin edits it): each size with its nail width, and
 * presets (XS, S, M, L) that fill in all ten at once.
 */

export const NAIL_COUNT = 10;

/** Ten sizes, in this order: left thumb, index, middle, ring, little finger, then the right hand's. */
export type NailSizes = number[];

export const FINGERS = ['thumb', 'index', 'middle', 'ring', 'little'] as const;
export type Finger = (typeof FINGERS)[number];
export const HANDS = ['left', 'right'] as const;
export type Hand = (typeof HANDS)[number];

/** The hand and finger of a position in NailSizes. */
export const fingerAt = (position: number): { hand: Hand; finger: Finger } => ({
  hand: HANDS[Math.floor(position / FINGERS.length)]!,
  finger: FINGERS[position % FINGERS.length]!,
});

interface NailSize {
  size: number;
  /** The nail's width at its widest, in tenths of a millimetre (180 is 18.0 mm). */
  widthTenthsMm: number;
}

interface SizePreset {
  /** XS, S, M, L... as the shop names them. */
  id: string;
  name: LocalizedText;
  sizes: NailSizes;
}

export interface NailSizeChart {
  sizes: NailSize[];
  presets: SizePreset[];
}

export const MAX_CHART_SIZES = 20;
export const MAX_SIZE_PRESETS = 8;
/** The largest size number a chart may have, and the widest nail it may list (30.0 mm). */
export const MAX_NAIL_SIZE = 30;
export const MAX_NAIL_WIDTH_TENTHS_MM = 300;

const bothHands = (hand: number[]): NailSizes => [...hand, ...hand];

/** The chart a new shop starts with: sizes 0–11, 18 mm down to 7 mm, and the four common presets. */
export const DEFAULT_NAIL_SIZE_CHART: NailSizeChart = {
  sizes: Array.from({ length: 12 }, (_, size) => ({ size, widthTenthsMm: 180 - size * 10 })),
  presets: [
    { id: 'xs', name: { en: 'XS', bg: 'XS' }, sizes: bothHands([3, 6, 5, 7, 9]) },
    { id: 's', name: { en: 'S', bg: 'S' }, sizes: bothHands([2, 6, 5, 7, 9]) },
    { id: 'm', name: { en: 'M', bg: 'M' }, sizes: bothHands([1, 5, 4, 6, 8]) },
    { id: 'l', name: { en: 'L', bg: 'L' }, sizes: bothHands([0, 4, 3, 5, 7]) },
  ],
};

/** Why ten sizes are refused, as a message key, or null when they fit the chart. */
export function validateNailSizes(sizes: unknown, chart: NailSizeChart): string | null {
  if (!Array.isArray(sizes) || sizes.length !== NAIL_COUNT) return 'choices.errors.sizesIncomplete';
  const known = new Set(chart.sizes.map((entry) => entry.size));
  for (const size of sizes) {
    if (!Number.isInteger(size) || !known.has(size as number)) return 'choices.errors.sizeOutsideChart';
  }
  return null;
}

/** "3-6-5-7-9 / 3-6-5-7-9": the left hand, then the right, thumb first. */
export const sizesText = (sizes: NailSizes) =>
  [sizes.slice(0, FINGERS.length), sizes.slice(FINGERS.length)].map((hand) => hand.join('-')).join(' / ');

/** "18.0 mm" or "18,0 мм": a width as each language writes it. */
export function widthText(widthTenthsMm: number, language: string): string {
  const number = new Intl.NumberFormat(language, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(widthTenthsMm / 10);
  return language === 'bg' ? `${number} мм` : `${number} mm`;
}

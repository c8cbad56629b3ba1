import { describe, expect, it } from 'vitest';
import { DEFAULT_NAIL_SIZE_CHART, fingerAt, NAIL_COUNT, sizesText, validateNailSizes, widthText } from './nail-sizes.js';

describe('the default size chart', () => {
  it('has sizes 0 to 11 from 18 mm down to 7 mm, and presets within it', () => {
    expect(DEFAULT_NAIL_SIZE_CHART.sizes.map((entry) => entry.size)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(DEFAULT_NAIL_SIZE_CHART.sizes[0]!.widthTenthsMm).toBe(180);
    expect(DEFAULT_NAIL_SIZE_CHART.sizes[11]!.widthTenthsMm).toBe(70);
    expect(DEFAULT_NAIL_SIZE_CHART.presets.map((preset) => preset.id)).toEqual(['xs', 's', 'm', 'l']);
    for (const preset of DEFAULT_NAIL_SIZE_CHART.presets) expect(validateNailSizes(preset.sizes, DEFAULT_NAIL_SIZE_CHART), preset.id).toBeNull();
  });
});

describe('validateNailSizes', () => {
  const chart = DEFAULT_NAIL_SIZE_CHART;
  const ten = [0, 4, 3, 5, 7, 0, 4, 3, 5, 7];

  it('accepts ten whole sizes on the chart', () => {
    expect(validateNailSizes(ten, chart)).toBeNull();
  });

  it.each([
    ['nothing', null, 'choices.errors.sizesIncomplete'],
    ['not a list', '0-4-3-5-7', 'choices.errors.sizesIncomplete'],
    ['nine sizes', ten.slice(1), 'choices.errors.sizesIncomplete'],
    ['eleven sizes', [...ten, 3], 'choices.errors.sizesIncomplete'],
    ['a size past the chart', [12, ...ten.slice(1)], 'choices.errors.sizeOutsideChart'],
    ['a negative size', [-1, ...ten.slice(1)], 'choices.errors.sizeOutsideChart'],
    ['half a size', [3.5, ...ten.slice(1)], 'choices.errors.sizeOutsideChart'],
    ['a size as text', ['3', ...ten.slice(1)], 'choices.errors.sizeOutsideChart'],
  ] as const)('refuses %s', (_case, sizes, key) => {
    expect(validateNailSizes(sizes, chart)).toBe(key);
  });

  it('follows the chart the shop has', () => {
    const small = { sizes: [{ size: 2, widthTenthsMm: 160 }, { size: 3, widthTenthsMm: 150 }], presets: [] };
    expect(validateNailSizes(Array(NAIL_COUNT).fill(2), small)).toBeNull();
    expect(validateNailSizes(Array(NAIL_COUNT).fill(0), small)).toBe('choices.errors.sizeOutsideChart');
  });
});

describe('sizes as people read them', () => {
  it('names each position’s hand and finger, left thumb first', () => {
    expect(fingerAt(0)).toEqual({ hand: 'left', finger: 'thumb' });
    expect(fingerAt(4)).toEqual({ hand: 'left', finger: 'little' });
    expect(fingerAt(5)).toEqual({ hand: 'right', finger: 'thumb' });
    expect(fingerAt(9)).toEqual({ hand: 'right', finger: 'little' });
  });

  it('writes ten sizes hand by hand, and a width in each language', () => {
    expect(sizesText([3, 6, 5, 7, 9, 2, 6, 5, 7, 8])).toBe('3-6-5-7-9 / 2-6-5-7-8');
    expect(widthText(180, 'en')).toBe('18.0 mm');
    expect(widthText(175, 'bg')).toBe('17,5 мм');
  });
});

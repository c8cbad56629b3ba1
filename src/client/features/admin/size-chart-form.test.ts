import { describe, expect, it } from 'vitest';
import { DEFAULT_NAIL_SIZE_CHART } from '#shared/nail-sizes.js';
import { chartToForm, emptyPreset, formToChart, nextSize, parseWidth, widthFieldText, type SizeChartForm } from './size-chart-form.js';

describe('the size chart form', () => {
  it('gives back the chart it was made from, in either language', () => {
    for (const language of ['en', 'bg']) expect(formToChart(chartToForm(DEFAULT_NAIL_SIZE_CHART, language))).toEqual({ chart: DEFAULT_NAIL_SIZE_CHART });
  });

  it.each([
    ['14,5', 145],
    ['14.5', 145],
    [' 9 ', 90],
    ['30', 300],
  ])('reads the width %j as %i tenths of a millimetre', (text, tenths) => {
    expect(parseWidth(text)).toBe(tenths);
  });

  it.each(['', '14,55', '0,5', '30,1', 'wide', '-3'])('refuses the width %j', (text) => {
    expect(parseWidth(text)).toBeUndefined();
  });

  it('shows a width with the language’s decimal mark', () => {
    expect(widthFieldText(145, 'bg')).toBe('14,5');
    expect(widthFieldText(180, 'en')).toBe('18.0');
  });

  it('adds the next size a millimetre narrower', () => {
    const form = chartToForm(DEFAULT_NAIL_SIZE_CHART, 'en');
    expect(nextSize(form)).toMatchObject({ size: '12', width: '6.0' });
    expect(nextSize({ sizes: [], presets: [] })).toMatchObject({ size: '0', width: '' });
  });

  it('names a new preset’s id after it and keeps a saved one', () => {
    const form = chartToForm(DEFAULT_NAIL_SIZE_CHART, 'en');
    const renamed: SizeChartForm = {
      ...form,
      presets: [{ ...form.presets[0]!, nameEn: 'Extra small' }, { ...emptyPreset(), nameEn: 'XL', sizes: ['0', '3', '2', '4', '6', '0', '3', '2', '4', '6'] }],
    };
    const built = formToChart(renamed);
    if (!('chart' in built)) throw new Error(JSON.stringify(built));
    expect(built.chart.presets.map((preset) => preset.id)).toEqual(['xs', 'xl']);
  });

  it.each<[string, (form: SizeChartForm) => SizeChartForm, string, string]>([
    ['no sizes', (form) => ({ ...form, sizes: [] }), 'sizes', 'sizesRequired'],
    ['a size twice', (form) => ({ ...form, sizes: [...form.sizes, { key: 'x', size: '3', width: '9' }] }), 'sizes.12.size', 'duplicateSize'],
    ['a size that is not a number', (form) => ({ ...form, sizes: [{ ...form.sizes[0]!, size: 'XL' }] }), 'sizes.0.size', 'invalidSize'],
    ['a width of two decimals', (form) => ({ ...form, sizes: [{ ...form.sizes[0]!, width: '18,25' }] }), 'sizes.0.widthTenthsMm', 'invalidWidth'],
    // Size 11 is removed: the presets that use it are refused, at the finger that does.
    ['a preset with a size the chart lacks', (form) => ({ ...form, presets: [{ ...form.presets[0]!, sizes: ['3', '6', '5', '7', '13', '3', '6', '5', '7', '9'] }] }), 'presets.0.sizes.4', 'presetOutsideChart'],
  ])('refuses %s at its field', (_case, change, field, key) => {
    expect(formToChart(change(chartToForm(DEFAULT_NAIL_SIZE_CHART, 'en')))).toEqual({ problem: { field, messageKey: `admin.sizeChart.messages.${key}` } });
  });

  it('refuses a preset without a name in the words the server uses', () => {
    const form = chartToForm(DEFAULT_NAIL_SIZE_CHART, 'en');
    expect(formToChart({ ...form, presets: [{ ...form.presets[0]!, nameEn: ' ', nameBg: '' }] })).toEqual({ problem: { field: 'presets.0.name', messageKey: 'admin.products.messages.optionNameRequired' } });
  });
});

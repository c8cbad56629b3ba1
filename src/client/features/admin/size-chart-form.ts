import { MAX_CHART_SIZES, MAX_SIZE_PRESETS, NAIL_COUNT, type NailSizeChart } from '#shared/nail-sizes.js';
import { assignIds, newRowKey, type ModelProblem } from './product-model-form.js';

/**
 * The size chart as the admin types it: each size's number and width in millimetres ("14,5"), each
 * preset's names and ten sizes. A preset's id, once saved, stays (buyers' choices may name it).
 */

const messages = 'admin.sizeChart.messages';

export interface SizeRowForm {
  key: string;
  size: string;
  width: string;
}

export interface PresetForm {
  key: string;
  savedId: string | null;
  nameEn: string;
  nameBg: string;
  sizes: string[];
}

export interface SizeChartForm {
  sizes: SizeRowForm[];
  presets: PresetForm[];
}

/** The widest nail and the largest size number a chart may list, as the server takes them. */
const MAX_WIDTH_MM = 30;
const MAX_SIZE_NUMBER = 30;

/** A width in tenths of a millimetre as the field shows it: 145 → "14.5", "14,5" in Bulgarian. */
export const widthFieldText = (tenths: number, language: string) => {
  const text = (tenths / 10).toFixed(1);
  return language === 'bg' ? text.replace('.', ',') : text;
};

/** A width as typed, in tenths of a millimetre, or undefined: "14,5" → 145, "14" → 140. */
export function parseWidth(text: string): number | undefined {
  const match = /^(\d{1,2})(?:[.,](\d))?$/.exec(text.trim());
  if (!match) return undefined;
  const tenths = Number(match[1]) * 10 + Number(match[2] ?? '0');
  return tenths >= 10 && tenths <= MAX_WIDTH_MM * 10 ? tenths : undefined;
}

export function chartToForm(chart: NailSizeChart, language: string): SizeChartForm {
  return {
    sizes: chart.sizes.map((entry) => ({ key: newRowKey('s'), size: String(entry.size), width: widthFieldText(entry.widthTenthsMm, language) })),
    presets: chart.presets.map((preset) => ({ key: newRowKey('p'), savedId: preset.id, nameEn: preset.name.en, nameBg: preset.name.bg, sizes: preset.sizes.map(String) })),
  };
}

/** A new size after the last: the next number, a millimetre narrower (sizes grow narrower as they go up). */
export function nextSize(form: SizeChartForm): SizeRowForm {
  const last = form.sizes.at(-1);
  const lastSize = last ? Number(last.size) : -1;
  const lastWidth = last ? parseWidth(last.width) : undefined;
  return {
    key: newRowKey('s'),
    size: Number.isInteger(lastSize) ? String(lastSize + 1) : '',
    width: lastWidth !== undefined && lastWidth > 20 ? widthFieldText(lastWidth - 10, 'en') : '',
  };
}

export const emptyPreset = (): PresetForm => ({ key: newRowKey('p'), savedId: null, nameEn: '', nameBg: '', sizes: Array.from({ length: NAIL_COUNT }, () => '') });

/** The chart to save, or the first field refused (sizes.2.widthTenthsMm, presets.0.sizes.4...). */
export function formToChart(form: SizeChartForm): { chart: NailSizeChart } | { problem: ModelProblem } {
  const problem = (field: string, key: string) => ({ problem: { field, messageKey: `${messages}.${key}` } });
  if (form.sizes.length === 0) return problem('sizes', 'sizesRequired');
  if (form.sizes.length > MAX_CHART_SIZES) return problem('sizes', 'tooManySizes');
  const sizes: NailSizeChart['sizes'] = [];
  for (const [index, row] of form.sizes.entries()) {
    const text = row.size.trim();
    if (!/^\d{1,2}$/.test(text) || Number(text) > MAX_SIZE_NUMBER) return problem(`sizes.${index}.size`, 'invalidSize');
    const size = Number(text);
    if (sizes.some((entry) => entry.size === size)) return problem(`sizes.${index}.size`, 'duplicateSize');
    const widthTenthsMm = parseWidth(row.width);
    if (widthTenthsMm === undefined) return problem(`sizes.${index}.widthTenthsMm`, 'invalidWidth');
    sizes.push({ size, widthTenthsMm });
  }
  if (form.presets.length > MAX_SIZE_PRESETS) return problem('presets', 'tooManyPresets');
  const known = new Set(sizes.map((entry) => entry.size));
  const ids = assignIds(form.presets, (preset) => ({ en: preset.nameEn.trim(), bg: preset.nameBg.trim() }), 'preset');
  const presets: NailSizeChart['presets'] = [];
  for (const [index, preset] of form.presets.entries()) {
    const name = { en: preset.nameEn.trim(), bg: preset.nameBg.trim() };
    // The same words as an option's name, as the server says it.
    if (!name.en && !name.bg) return { problem: { field: `presets.${index}.name`, messageKey: 'admin.products.messages.optionNameRequired' } };
    const presetSizes: number[] = [];
    for (const [finger, text] of preset.sizes.entries()) {
      const size = /^\d{1,2}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
      if (!known.has(size)) return problem(`presets.${index}.sizes.${finger}`, 'presetOutsideChart');
      presetSizes.push(size);
    }
    presets.push({ id: ids.get(preset.key)!, name, sizes: presetSizes });
  }
  return { chart: { sizes, presets } };
}

import { eq } from 'drizzle-orm';
import { DEFAULT_NAIL_SIZE_CHART, NAIL_COUNT, type NailSizeChart } from '../../shared/nail-sizes.js';
import type { Executor } from '../db/client.js';
import { shopState } from '../db/schema.js';

/** The shop_state key holding the shop's size chart as JSON; absent until the admin first saves one. */
export const NAIL_SIZE_CHART_KEY = 'nail_size_chart';

/**
 * The shop's size chart, or the default one when none is saved. A saved value that is not a chart
 * (hand-edited, say) counts as absent, so that a buyer's sizes are never checked against nonsense.
 */
export async function readNailSizeChart(db: Executor): Promise<NailSizeChart> {
  const [row] = await db.select({ value: shopState.value }).from(shopState).where(eq(shopState.key, NAIL_SIZE_CHART_KEY));
  return row ? parseNailSizeChart(row.value) : DEFAULT_NAIL_SIZE_CHART;
}

function parseNailSizeChart(text: string): NailSizeChart {
  try {
    const chart = JSON.parse(text) as Partial<NailSizeChart> | null;
    const sizesOk = Array.isArray(chart?.sizes) && chart.sizes.every((entry) => Number.isInteger(entry?.size) && Number.isInteger(entry?.widthTenthsMm));
    const presetsOk =
      Array.isArray(chart?.presets) &&
      chart.presets.every((preset) => typeof preset?.id === 'string' && typeof preset.name?.en === 'string' && Array.isArray(preset.sizes) && preset.sizes.length === NAIL_COUNT);
    return sizesOk && presetsOk && chart!.sizes!.length > 0 ? (chart as NailSizeChart) : DEFAULT_NAIL_SIZE_CHART;
  } catch {
    return DEFAULT_NAIL_SIZE_CHART;
  }
}

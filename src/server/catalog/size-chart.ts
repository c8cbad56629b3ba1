import { nailSizeChartSchema } from '#shared/catalog-schemas.js';
import { DEFAULT_NAIL_SIZE_CHART, type NailSizeChart } from '#shared/nail-sizes.js';
import type { Executor } from '#server/db/client.js';
import { readShopState, shopStateColumn, writeShopState } from '#server/db/shop-state.js';
import { parseInput } from '#server/http/validation.js';

/** The shop's one size chart, as JSON in shop_state; a shop that never saved one uses the default. */
export const SIZE_CHART_KEY = 'nail_size_chart';

export async function readSizeChart(db: Executor): Promise<NailSizeChart> {
  return parseSizeChart(await readShopState(db, SIZE_CHART_KEY));
}

/** The saved chart as a column of another query (the checkout's cart), which parseSizeChart reads. */
export const sizeChartColumn = shopStateColumn(SIZE_CHART_KEY);

export function parseSizeChart(value: string | null | undefined): NailSizeChart {
  if (!value) return DEFAULT_NAIL_SIZE_CHART;
  // Saved through saveSizeChart only; a value that no longer parses (edited by hand) falls back rather than break every sized product.
  let saved: unknown;
  try {
    saved = JSON.parse(value);
  } catch {
    return DEFAULT_NAIL_SIZE_CHART;
  }
  const parsed = nailSizeChartSchema.safeParse(saved);
  return parsed.success ? parsed.data : DEFAULT_NAIL_SIZE_CHART;
}

/** Validates and saves the chart (400 with the refused field and its message key otherwise); returns it as saved. */
export async function saveSizeChart(db: Executor, input: unknown): Promise<NailSizeChart> {
  const chart = parseInput(nailSizeChartSchema, input);
  const value = JSON.stringify(chart);
  await writeShopState(db, SIZE_CHART_KEY, value);
  return chart;
}

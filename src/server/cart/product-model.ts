import { combinationKey, leadTimeOf, type CombinationStock, type LineChoices, type OptionGroup, type ProductModel, type ProductQuestion, type StockMode } from '#shared/product-options.js';

// A product's model (options, sizes, questions, lead time) as the cart and the checkout read it
// straight from the products table: they decide what a line is and costs, so they depend on no
// catalogue code.

/** The model's columns of `products` under the alias, for raw statements; JSON as text, parsed here alike on both drivers. */
export const modelColumns = (alias: string) =>
  `${alias}.price_minor, ${alias}.option_groups::text as option_groups, ${alias}.stock_mode, ${alias}.sized, ${alias}.questions::text as questions, ${alias}.lead_kind, ${alias}.lead_min_days, ${alias}.lead_max_days`;

export interface ModelColumnsRow {
  price_minor: number;
  option_groups: string;
  stock_mode: string;
  sized: boolean;
  questions: string;
  lead_kind: string;
  lead_min_days: number;
  lead_max_days: number;
}

/** The model of a raw row (modelColumns), with the combinations the caller read. */
export function modelOfRow(row: ModelColumnsRow, combinations: CombinationStock[] = []): ProductModel {
  return {
    priceMinor: row.price_minor,
    optionGroups: JSON.parse(row.option_groups) as OptionGroup[],
    stockMode: row.stock_mode as StockMode,
    combinations,
    sized: row.sized,
    questions: JSON.parse(row.questions) as ProductQuestion[],
    leadTime: leadTimeOf(row.lead_kind, row.lead_min_days, row.lead_max_days),
  };
}

/** The combination whose count a line of these choices takes, or null when the product's own count (or none) applies. */
export function countedCombination(model: Pick<ProductModel, 'optionGroups' | 'stockMode'>, choices: LineChoices): string | null {
  return model.stockMode === 'combination' && model.optionGroups.length > 0 ? combinationKey(model.optionGroups, choices.options) : null;
}


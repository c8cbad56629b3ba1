import type { NailSizeChart } from '#shared/nail-sizes.js';
import { validateChoices, type ChoiceProblem, type LineChoices, type OptionGroup, type ProductModel } from '#shared/product-options.js';

type Model = Pick<ProductModel, 'optionGroups' | 'stockMode' | 'combinations' | 'sized' | 'questions'>;

/** Why a value cannot be chosen with the others chosen so far: no such combination on sale, or none left. */
export type Unavailable = 'unavailable' | 'soldOut' | null;

/**
 * Whether the value may be chosen with the other groups' values chosen so far. A combination missing
 * from the list is not sold; one with no pieces left is sold out; groups not chosen yet match any value.
 */
export function availability(product: Model, options: Record<string, string>, group: OptionGroup, valueId: string): Unavailable {
  if (product.stockMode !== 'combination') return null;
  const wanted = { ...options, [group.id]: valueId };
  const matching = product.combinations.filter((combination) => {
    const ids = combination.key.split('/');
    return product.optionGroups.every((other, index) => !wanted[other.id] || ids[index] === wanted[other.id]);
  });
  if (matching.length === 0) return 'unavailable';
  return matching.some((combination) => combination.stock === null || combination.stock > 0) ? null : 'soldOut';
}

/** Every problem of the choices, one per field (validateChoices stops at the first), for the page to mark them all. */
export function problemsOf(product: Model, choices: LineChoices, filledSizes: number, chart: NailSizeChart): ChoiceProblem[] {
  const none = { optionGroups: [], stockMode: 'product' as const, combinations: [], sized: false, questions: [] };
  const problemOf = (part: Parameters<typeof validateChoices>[0]) => {
    const checked = validateChoices(part, choices, chart);
    return 'problem' in checked ? [checked.problem] : [];
  };
  const problems = product.optionGroups.flatMap((group) => problemOf({ ...none, optionGroups: [group] }));
  // The combination is judged once every group has a value.
  if (problems.length === 0) problems.push(...problemOf({ ...none, optionGroups: product.optionGroups, stockMode: product.stockMode, combinations: product.combinations }));
  problems.push(...product.questions.flatMap((question) => problemOf({ ...none, questions: [question] })));
  if (product.sized) {
    // A partly chosen set is told apart from none at all.
    if (filledSizes > 0 && !choices.sizes) problems.push({ field: 'sizes', messageKey: 'choices.errors.sizesIncomplete' });
    else {
      const checked = validateChoices({ ...none, sized: true }, choices, chart);
      if ('problem' in checked) problems.push(checked.problem);
    }
  }
  return problems;
}

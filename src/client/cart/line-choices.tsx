import { Link } from 'wouter';
import { choicesText, hasChoices } from '#shared/product-options.js';
import { productPath } from '#shared/routes.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { useLocalize } from '#client/i18n/localized.js';
import { ChoiceSummaryText } from '#client/ui/choice-summary.js';
import type { ShownCartItem } from './cart-storage.js';

/**
 * A line's name for buttons and labels: with its choices when it has any, since lines of one product
 * differ only by them ("One more Rose Set (Almond · Medium)").
 */
export function useLineName(): (item: Pick<ShownCartItem, 'name' | 'summary'>) => string {
  const { t, language } = useTranslation();
  const localize = useLocalize();
  return (item) => {
    const name = localize(item.name);
    return item.summary && hasChoices(item.summary) ? `${name} (${choicesText(item.summary, language, t('choices.sizes'))})` : name;
  };
}

/**
 * Under a cart line's name: what was chosen, and when the product changed so that the choices no
 * longer fit, why, with the way back to the product's page to choose again.
 */
export function LineChoices({ item }: { item: Pick<ShownCartItem, 'name' | 'slug' | 'summary' | 'problem'> }) {
  const { t } = useTranslation();
  const localize = useLocalize();
  const name = localize(item.name);
  return (
    <>
      <ChoiceSummaryText summary={item.summary} />
      {item.problem && (
        <span className="line-problem">
          {t(item.problem.messageKey)}{' '}
          <Link href={productPath(item.slug)} aria-label={t('choices.chooseAgainLabel', { productName: name })}>
            {t('choices.chooseAgain')}
          </Link>
        </span>
      )}
    </>
  );
}

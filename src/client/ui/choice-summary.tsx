import { sizesText } from '../../shared/nail-sizes.js';
import type { ChoiceSummary } from '../../shared/product-options.js';
import { useTranslation } from '../i18n/i18n.js';
import { Localized } from '../i18n/localized.js';

/**
 * What was chosen for a line, in one compact line: "Almond · Medium · Sizes 3-6-5-7-9 / 3-6-5-7-9 ·
 * Design wish: pink" (choicesText writes the same for e-mails). Each part keeps together, so a narrow
 * screen wraps between parts. Nothing for a product sold as it is.
 */
export function ChoiceSummaryText({ summary }: { summary: ChoiceSummary | undefined }) {
  const { t } = useTranslation();
  if (!summary) return null;
  const parts = [
    ...summary.options.map((option, index) => (
      <span key={`o${index}`}>
        <Localized text={option.value} />
      </span>
    )),
    ...(summary.sizes
      ? [
          <span key="s">
            {t('choices.sizes')} {sizesText(summary.sizes)}
          </span>,
        ]
      : []),
    ...summary.answers.map((answer, index) => (
      <span key={`a${index}`}>
        <Localized text={answer.question} />: <Localized text={answer.answer} />
      </span>
    )),
  ];
  if (parts.length === 0) return null;
  return (
    <span className="choice-summary">
      {parts.map((part, index) => (
        <span key={index} className="choice-summary__part">
          {index > 0 && <span aria-hidden="true"> · </span>}
          {part}
        </span>
      ))}
    </span>
  );
}

import type { ReactNode } from 'react';
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
  const parts: { whole: boolean; text: ReactNode }[] = [
    ...summary.options.map((option) => ({ whole: true, text: <Localized text={option.value} /> })),
    ...(summary.sizes ? [{ whole: true, text: `${t('choices.sizes')} ${sizesText(summary.sizes)}` }] : []),
    ...summary.answers.map((answer) => ({
      whole: false,
      text: (
        <>
          <Localized text={answer.question} />: <Localized text={answer.answer} />
        </>
      ),
    })),
  ];
  if (parts.length === 0) return null;
  return (
    <span className="choice-summary">
      {parts.map((part, index) => (
        <span key={index}>
          {index > 0 && <span aria-hidden="true"> · </span>}
          <span className={part.whole ? 'choice-summary__part--whole' : undefined}>{part.text}</span>
        </span>
      ))}
    </span>
  );
}

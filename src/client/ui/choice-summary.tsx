import type { ReactNode } from 'react';
import type { ChoiceSummary } from '#shared/product-options.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { Localized } from '#client/i18n/localized.js';

/**
 * What was chosen for a line, in one compact line: "Almond · Medium · Sizes 3-6-5-7-9 / 3-6-5-7-9 ·
 * Design wish: pink" (choicesText writes the same for e-mails, with sizesText's hands). Each part keeps together, so a narrow
 * screen wraps between parts. Nothing for a product sold as it is.
 */
export function ChoiceSummaryText({ summary }: { summary: ChoiceSummary | undefined }) {
  const { t } = useTranslation();
  if (!summary) return null;
  const parts: { whole: boolean; text: ReactNode }[] = [
    ...summary.options.map((option) => ({ whole: true, text: <Localized text={option.value} /> })),
    // Each hand keeps together; a narrow line breaks between the hands.
    ...(summary.sizes
      ? [
          {
            whole: false,
            text: (
              <>
                <span className="choice-summary__part--whole">
                  {t('choices.sizes')} {summary.sizes.slice(0, 5).join('-')}
                </span>{' '}
                / <span className="choice-summary__part--whole">{summary.sizes.slice(5).join('-')}</span>
              </>
            ),
          },
        ]
      : []),
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

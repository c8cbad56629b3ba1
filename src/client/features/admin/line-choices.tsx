import { FINGERS, HANDS, type NailSizes } from '#shared/nail-sizes.js';
import { pickText } from '#shared/catalog.js';
import type { ChoiceSummary } from '#shared/product-options.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { Localized } from '#client/i18n/localized.js';

/** Ten sizes as the maker works from them: a row per hand, a column per finger, thumb first. */
function SizesTable({ sizes }: { sizes: NailSizes }) {
  const { t } = useTranslation();
  return (
    <table className="sizes-table">
      <caption>{t('admin.sizes.caption')}</caption>
      <thead>
        <tr>
          <th scope="col">
            <span className="visually-hidden">{t('admin.sizes.hand')}</span>
          </th>
          {FINGERS.map((finger) => (
            <th key={finger} scope="col">
              {/* A phone has no room for five whole names in Bulgarian ("Безименен"): it shows short ones, and reads the whole. */}
              <span className="sizes-table__full">{t(`admin.sizes.fingers.${finger}`)}</span>
              <span className="sizes-table__short" aria-hidden="true">
                {t(`admin.sizes.fingersShort.${finger}`)}
              </span>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {HANDS.map((hand, handIndex) => (
          <tr key={hand}>
            <th scope="row">{t(`admin.sizes.hands.${hand}`)}</th>
            {FINGERS.map((finger, fingerIndex) => (
              <td key={finger}>{sizes[handIndex * FINGERS.length + fingerIndex]}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** What was chosen for a line: its options, its ten sizes and the buyer's answers, as ordered. */
export function LineChoices({ choices }: { choices: ChoiceSummary }) {
  const { t, language } = useTranslation();
  const notes = [...choices.options.map((option) => ({ label: option.group, text: option.value })), ...choices.answers.map((answer) => ({ label: answer.question, text: answer.answer }))];
  if (notes.length === 0 && !choices.sizes) return <p className="muted line-choices__none">{t('admin.workList.noChoices')}</p>;
  return (
    <div className="line-choices">
      {notes.length > 0 && (
        <dl className="line-choices__list">
          {notes.map((note, index) => (
            <div key={index} className="line-choices__item">
              <dt>
                <Localized text={note.label} />
                {/* "Design wish:", but "Which hand is dominant?" needs no colon after it. */}
                {!/[?:]$/.test(pickText(note.label, language).text.trim()) && ':'}
              </dt>{' '}
              <dd>
                <Localized text={note.text} />
              </dd>
            </div>
          ))}
        </dl>
      )}
      {choices.sizes && (
        <div className="sizes-table__wrap">
          <SizesTable sizes={choices.sizes} />
        </div>
      )}
    </div>
  );
}

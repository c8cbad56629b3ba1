import { useId, type ReactNode } from 'react';
import { FINGERS, HANDS, NAIL_COUNT, widthText, type NailSizeChart, type NailSizes } from '#shared/nail-sizes.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { useLocalize } from '#client/i18n/localized.js';

/** Ten sizes as they are being chosen: null where a finger has none yet. */
export type SizesDraft = (number | null)[];

export const EMPTY_SIZES: SizesDraft = Array.from({ length: NAIL_COUNT }, () => null);

/** The draft as NailSizes once every finger has a size; the server and validateNailSizes judge the rest. */
export const completeSizes = (draft: SizesDraft): NailSizes | null => (draft.every((size) => size !== null) ? (draft as NailSizes) : null);

const sameSizes = (draft: SizesDraft, sizes: readonly number[]) => draft.every((size, position) => size === sizes[position]);

interface NailSizeFieldsProps {
  value: SizesDraft;
  onChange(value: SizesDraft): void;
  chart: NailSizeChart;
  /** The buyer's saved sizes, offered as a preset of their own. */
  saved?: NailSizes | null;
  /** Why the sizes are refused, already translated. */
  error?: string | null;
  /** The legend, when it is not "Nail sizes". */
  legend?: string;
  /** Said under the presets, such as where the sizes shown came from. */
  note?: ReactNode;
}

/**
 * Ten sizes, left hand then right, thumb to little finger: a select each, filled at once by a preset
 * of the chart or by the buyer's saved sizes, with the measuring guide and the chart's widths.
 */
export function NailSizeFields({ value, onChange, chart, saved, error, legend, note }: NailSizeFieldsProps) {
  const { t, language } = useTranslation();
  const localize = useLocalize();
  const errorId = useId();
  const fieldId = useId();
  const setSize = (position: number, size: number | null) => onChange(value.map((current, index) => (index === position ? size : current)));
  return (
    <fieldset className="size-picker" aria-describedby={error ? errorId : undefined}>
      <legend className="size-picker__legend">{legend ?? t('sizes.title')}</legend>
      <div className="size-picker__presets" role="group" aria-label={t('sizes.presets')}>
        {saved && (
          <button type="button" className="chip" aria-pressed={sameSizes(value, saved)} onClick={() => onChange([...saved])}>
            {t('sizes.useSaved')}
          </button>
        )}
        {chart.presets.map((preset) => (
          <button key={preset.id} type="button" className="chip" aria-pressed={sameSizes(value, preset.sizes)} onClick={() => onChange([...preset.sizes])}>
            {localize(preset.name)}
          </button>
        ))}
      </div>
      {note}
      <div className="size-picker__hands">
        {HANDS.map((hand, handIndex) => (
          <fieldset key={hand} className="size-picker__hand">
            <legend>{t(`sizes.hands.${hand}`)}</legend>
            {FINGERS.map((finger, fingerIndex) => {
              const position = handIndex * FINGERS.length + fingerIndex;
              const size = value[position] ?? null;
              return (
                // An explicit label: one around the select would take its chosen size into the name.
                <div key={finger} className="size-picker__finger">
                  <label htmlFor={`${fieldId}-${position}`}>{t(`sizes.fingers.${finger}`)}</label>
                  <select
                    id={`${fieldId}-${position}`}
                    className="field__input"
                    value={size ?? ''}
                    aria-invalid={Boolean(error) && size === null ? true : undefined}
                    onChange={(event) => setSize(position, event.target.value === '' ? null : Number(event.target.value))}
                  >
                    <option value="">{t('sizes.choose')}</option>
                    {chart.sizes.map((entry) => (
                      <option key={entry.size} value={entry.size}>
                        {t('sizes.sizeOption', { size: entry.size, width: widthText(entry.widthTenthsMm, language) })}
                      </option>
                    ))}
                  </select>
                </div>
              );
            })}
          </fieldset>
        ))}
      </div>
      {error && (
        <p className="field__error" id={errorId} role="alert">
          {error}
        </p>
      )}
      <details className="size-guide">
        <summary>{t('sizes.howToMeasure')}</summary>
        <ol>
          <li>{t('sizes.guide.tape')}</li>
          <li>{t('sizes.guide.pick')}</li>
          <li>{t('sizes.guide.bothHands')}</li>
        </ol>
        <table className="size-guide__chart">
          <caption>{t('sizes.chart')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('sizes.size')}</th>
              <th scope="col">{t('sizes.width')}</th>
            </tr>
          </thead>
          <tbody>
            {chart.sizes.map((entry) => (
              <tr key={entry.size}>
                <td>{entry.size}</td>
                <td>{widthText(entry.widthTenthsMm, language)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </fieldset>
  );
}

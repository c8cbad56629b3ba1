import { useId, useState } from 'react';
import type { StockMode } from '#shared/product-options.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { ListError, fieldId, rowName, type ErrorAt } from './model-fields.js';
import { combinationRows, type CombinationForm, type GroupForm } from './product-model-form.js';

interface CombinationStockEditorProps {
  formId: string;
  groups: GroupForm[];
  stockMode: StockMode;
  onStockMode(mode: StockMode): void;
  combinations: Record<string, CombinationForm>;
  onChange(combinations: Record<string, CombinationForm>): void;
  errorAt: ErrorAt;
}

const key = 'admin.products.model.';
const NEW_COMBINATION: CombinationForm = { count: '', notSold: false };

/**
 * One count for every combination (the product's own stock field), or a table with a row for each
 * combination of the groups' values: its count (empty: made to order) and whether it is sold at all.
 */
export function CombinationStockEditor({ formId, groups, stockMode, onStockMode, combinations, onChange, errorAt }: CombinationStockEditorProps) {
  const { t, language } = useTranslation();
  const id = useId();
  const [allCount, setAllCount] = useState('');
  const unnamed = t(`${key}unnamed`);
  const rows = combinationRows(groups);
  const set = (rowKey: string, change: Partial<CombinationForm>) => onChange({ ...combinations, [rowKey]: { ...(combinations[rowKey] ?? NEW_COMBINATION), ...change } });
  const setEvery = () =>
    onChange(Object.fromEntries(rows.map((row) => [row.rowKey, { ...(combinations[row.rowKey] ?? NEW_COMBINATION), count: allCount.trim() }])));

  return (
    <fieldset className="model-section">
      <legend className="model-section__title">{t(`${key}stockMode`)}</legend>
      <div className="model-radios">
        {(['product', 'combination'] as const).map((mode) => (
          <label key={mode} className="choice">
            <input type="radio" name={`${id}-stock-mode`} value={mode} checked={stockMode === mode} onChange={() => onStockMode(mode)} />
            <span>{t(`${key}stockModes.${mode}`)}</span>
          </label>
        ))}
      </div>
      {stockMode === 'combination' && (
        <>
          <p id={`${id}-hint`} className="field__hint">
            {t(`${key}combinationsHint`)}
          </p>
          <ListError formId={formId} field="combinations" errorAt={errorAt} />
          {rows.length > 1 && (
            <div className="model-set-all">
              <label className="field__label" htmlFor={`${id}-all`}>
                {t(`${key}setAll`)}
              </label>
              <input id={`${id}-all`} className="field__input model-count" type="text" inputMode="numeric" autoComplete="off" value={allCount} placeholder={t(`${key}madeToOrderPlaceholder`)} onChange={(event) => setAllCount(event.target.value)} />
              <button type="button" className="button button--small" onClick={setEvery}>
                {t(`${key}setAllButton`)}
              </button>
            </div>
          )}
          <div className="model-table-wrap">
            <table className="model-table" aria-describedby={`${id}-hint`}>
              <thead>
                <tr>
                  <th scope="col">{t(`${key}columns.combination`)}</th>
                  <th scope="col">{t(`${key}columns.count`)}</th>
                  <th scope="col">{t(`${key}columns.notSold`)}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => {
                  const entry = combinations[row.rowKey] ?? NEW_COMBINATION;
                  const name = row.values.map((value) => rowName(value, language, unnamed)).join(' / ');
                  const field = `combinations.${row.rowKey}`;
                  const error = errorAt(field);
                  return (
                    <tr key={row.rowKey} className={entry.notSold ? 'model-table__row--off' : undefined}>
                      <th scope="row">{name}</th>
                      <td>
                        <input
                          id={fieldId(formId, field)}
                          className="field__input model-count"
                          type="text"
                          inputMode="numeric"
                          autoComplete="off"
                          value={entry.count}
                          disabled={entry.notSold}
                          placeholder={t(`${key}madeToOrderPlaceholder`)}
                          aria-label={t(`${key}countFor`, { combination: name })}
                          aria-invalid={error ? true : undefined}
                          aria-describedby={error ? `${fieldId(formId, field)}-error` : undefined}
                          onChange={(event) => set(row.rowKey, { count: event.target.value })}
                        />
                        {error && (
                          <p id={`${fieldId(formId, field)}-error`} className="field__error">
                            {error}
                          </p>
                        )}
                      </td>
                      <td>
                        <input type="checkbox" className="model-check" checked={entry.notSold} aria-label={t(`${key}notSoldFor`, { combination: name })} onChange={(event) => set(row.rowKey, { notSold: event.target.checked })} />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </>
      )}
    </fieldset>
  );
}

import { useEffect, useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { FINGERS, HANDS, MAX_CHART_SIZES, MAX_SIZE_PRESETS, fingerAt } from '#shared/nail-sizes.js';
import { errorText, refusedField } from '#client/api/error-text.js';
import { ApiError } from '#client/api/http.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { LoadErrorMessage, LoadingMessage } from '#client/ui/state-message.js';
import { saveSizeChart, useSizeChart } from './admin-api.js';
import { ListError, ModelTextField, fieldId } from './model-fields.js';
import { formField } from './product-model-form.js';
import { chartToForm, emptyPreset, formToChart, nextSize, type PresetForm, type SizeChartForm } from './size-chart-form.js';

const key = 'admin.sizeChart.';

/**
 * The shop's one size chart: its sizes with the nail width of each, and the presets (XS, S, M, L)
 * that fill in ten sizes at once. Saved whole; the server checks it as the form does.
 */
export default function SizeChartEditor({ onToast }: { onToast(toast: { message: string; kind: 'success' | 'error' }): void }) {
  const { t, language } = useTranslation();
  const chart = useSizeChart();
  const queryClient = useQueryClient();
  const id = useId();
  const [form, setForm] = useState<SizeChartForm | null>(null);
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<{ field: string; message: string } | null>(null);
  const errorAt = (field: string) => (problem?.field === field ? problem.message : undefined);

  // The form starts from the chart as loaded, once; a refetch does not overwrite what the admin is typing.
  const loaded = chart.data;
  useEffect(() => {
    if (loaded && !form) setForm(chartToForm(loaded, language));
  }, [loaded, form, language]);

  if (chart.isPending || (chart.isSuccess && !form)) return <LoadingMessage>{t(`${key}loading`)}</LoadingMessage>;
  if (chart.isError || !form) return <LoadErrorMessage message={t(`${key}loadError`)} onRetry={chart.refetch} />;

  const change = (next: SizeChartForm) => {
    setForm(next);
    if (problem) setProblem(null);
  };
  const refuse = (field: string, message: string) => {
    setProblem({ field, message });
    requestAnimationFrame(() => document.getElementById(fieldId(id, field))?.focus());
  };
  const setPreset = (index: number, preset: PresetForm) => change({ ...form, presets: form.presets.map((candidate, at) => (at === index ? preset : candidate)) });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const built = formToChart(form);
    if ('problem' in built) return refuse(built.problem.field, t(built.problem.messageKey));
    setSaving(true);
    try {
      const saved = await saveSizeChart(built.chart, queryClient);
      setForm(chartToForm(saved, language));
      setProblem(null);
      onToast({ message: t(`${key}saved`), kind: 'success' });
    } catch (failure) {
      const refused = refusedField(t, failure);
      if (refused) refuse(formField(refused.field), t(refused.messageKey));
      else onToast({ message: `${t(`${key}saveError`)} ${failure instanceof ApiError ? errorText(t, failure) : ''}`.trim(), kind: 'error' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="panel size-chart" onSubmit={(event) => void submit(event)} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="panel__title">
        {t(`${key}title`)}
      </h2>
      <p className="field__hint">{t(`${key}intro`)}</p>

      <fieldset className="model-section">
        <legend className="model-section__title">{t(`${key}sizesTitle`)}</legend>
        <ListError formId={id} field="sizes" errorAt={errorAt} />
        <div className="model-table-wrap">
          <table className="model-table size-chart__sizes">
            <thead>
              <tr>
                <th scope="col">{t(`${key}columns.size`)}</th>
                <th scope="col">{t(`${key}columns.width`)}</th>
                <th scope="col">
                  <span className="visually-hidden">{t(`${key}columns.actions`)}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {form.sizes.map((row, index) => {
                const sizeError = errorAt(`sizes.${index}.size`);
                const widthError = errorAt(`sizes.${index}.widthTenthsMm`);
                const setRow = (change_: Partial<typeof row>) => change({ ...form, sizes: form.sizes.map((candidate, at) => (at === index ? { ...row, ...change_ } : candidate)) });
                return (
                  <tr key={row.key}>
                    <td>
                      <input
                        id={fieldId(id, `sizes.${index}.size`)}
                        className="field__input model-count"
                        type="text"
                        inputMode="numeric"
                        autoComplete="off"
                        maxLength={2}
                        value={row.size}
                        aria-label={t(`${key}sizeLabel`, { number: index + 1 })}
                        aria-invalid={sizeError ? true : undefined}
                        aria-describedby={sizeError ? `${id}-size-error` : undefined}
                        onChange={(event) => setRow({ size: event.target.value })}
                      />
                      {sizeError && (
                        <p id={`${id}-size-error`} className="field__error">
                          {sizeError}
                        </p>
                      )}
                    </td>
                    <td>
                      <input
                        id={fieldId(id, `sizes.${index}.widthTenthsMm`)}
                        className="field__input model-count"
                        type="text"
                        inputMode="decimal"
                        autoComplete="off"
                        maxLength={4}
                        value={row.width}
                        aria-label={t(`${key}widthLabel`, { size: row.size })}
                        aria-invalid={widthError ? true : undefined}
                        aria-describedby={widthError ? `${id}-width-error` : undefined}
                        onChange={(event) => setRow({ width: event.target.value })}
                      />
                      {widthError && (
                        <p id={`${id}-width-error`} className="field__error">
                          {widthError}
                        </p>
                      )}
                    </td>
                    <td>
                      <button
                        type="button"
                        className="button button--small button--ghost"
                        aria-label={t(`${key}removeSize`, { size: row.size })}
                        onClick={() => change({ ...form, sizes: form.sizes.filter((_, at) => at !== index) })}
                      >
                        {t('admin.products.model.remove')}
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        {form.sizes.length < MAX_CHART_SIZES && (
          <button type="button" className="button button--small" onClick={() => change({ ...form, sizes: [...form.sizes, nextSize(form)] })}>
            {t(`${key}addSize`)}
          </button>
        )}
      </fieldset>

      <fieldset className="model-section">
        <legend className="model-section__title">{t(`${key}presetsTitle`)}</legend>
        <p className="field__hint">{t(`${key}presetsHint`)}</p>
        <ListError formId={id} field="presets" errorAt={errorAt} />
        {form.presets.map((preset, index) => {
          const field = `presets.${index}`;
          const sizesError = preset.sizes.map((_, finger) => errorAt(`${field}.sizes.${finger}`)).find(Boolean);
          return (
            <fieldset key={preset.key} className="model-card">
              <legend className="model-card__title">
                {t(`${key}presetTitle`, { number: index + 1 })}
                {(preset.nameEn || preset.nameBg) && `: ${(language === 'bg' ? preset.nameBg : preset.nameEn) || preset.nameEn || preset.nameBg}`}
              </legend>
              <div className="model-pair">
                <ModelTextField formId={id} field={`${field}.name`} label={t(`${key}presetNameEn`)} lang="en" value={preset.nameEn} onChange={(nameEn) => setPreset(index, { ...preset, nameEn })} errorAt={errorAt} maxLength={40} />
                <ModelTextField formId={id} field={`${field}.name.bg`} label={t(`${key}presetNameBg`)} lang="bg" value={preset.nameBg} onChange={(nameBg) => setPreset(index, { ...preset, nameBg })} errorAt={errorAt} maxLength={40} />
              </div>
              <div className="preset-sizes" role="group" aria-label={t('admin.sizes.caption')}>
                <span aria-hidden="true" />
                {FINGERS.map((finger) => (
                  <span key={finger} className="preset-sizes__finger" aria-hidden="true">
                    <span className="sizes-table__full">{t(`admin.sizes.fingers.${finger}`)}</span>
                    <span className="sizes-table__short">{t(`admin.sizes.fingersShort.${finger}`)}</span>
                  </span>
                ))}
                {HANDS.map((hand, handIndex) => [
                  <span key={hand} className="preset-sizes__hand" aria-hidden="true">
                    {t(`admin.sizes.hands.${hand}`)}
                  </span>,
                  ...FINGERS.map((finger, fingerIndex) => {
                    const position = handIndex * FINGERS.length + fingerIndex;
                    const at = fingerAt(position);
                    const sizeField = `${field}.sizes.${position}`;
                    return (
                      <input
                        key={`${hand}-${finger}`}
                        id={fieldId(id, sizeField)}
                        className="field__input preset-sizes__input"
                        type="text"
                        inputMode="numeric"
                        autoComplete="off"
                        maxLength={2}
                        value={preset.sizes[position] ?? ''}
                        aria-label={`${preset.nameEn || preset.nameBg}: ${t('admin.sizes.fingerLabel', { hand: t(`admin.sizes.hands.${at.hand}`), finger: t(`admin.sizes.fingers.${at.finger}`).toLocaleLowerCase(language) })}`}
                        aria-invalid={errorAt(sizeField) ? true : undefined}
                        onChange={(event) => setPreset(index, { ...preset, sizes: preset.sizes.map((size, candidate) => (candidate === position ? event.target.value : size)) })}
                      />
                    );
                  }),
                ])}
              </div>
              {sizesError && <p className="field__error">{sizesError}</p>}
              <div className="form-actions">
                <button type="button" className="button button--small button--ghost" onClick={() => change({ ...form, presets: form.presets.filter((_, at) => at !== index) })}>
                  {t(`${key}removePreset`)}
                </button>
              </div>
            </fieldset>
          );
        })}
        {form.presets.length < MAX_SIZE_PRESETS && (
          <button type="button" className="button button--small" onClick={() => change({ ...form, presets: [...form.presets, emptyPreset()] })}>
            {t(`${key}addPreset`)}
          </button>
        )}
      </fieldset>
      {problem && (
        <p className="form-error" role="alert">
          {problem.message}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="button button--primary" aria-disabled={saving}>
          {saving ? t(`${key}saving`) : t(`${key}save`)}
        </button>
      </div>
    </form>
  );
}

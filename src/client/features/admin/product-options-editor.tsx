import { useTranslation } from '#client/i18n/i18n.js';
import { settings } from '#client/settings.js';
import { currencyLabel } from '#client/ui/price-text.js';
import { ListError, ModelTextField, RowActions, moved, rowName, type ErrorAt } from './model-fields.js';
import { MAX_OPTION_GROUPS, MAX_OPTION_VALUES, emptyGroup, emptyValue, type GroupForm, type ValueForm } from './product-model-form.js';

interface ProductOptionsEditorProps {
  formId: string;
  groups: GroupForm[];
  onChange(groups: GroupForm[]): void;
  errorAt: ErrorAt;
}

const key = 'admin.products.model.';

/** Up to three option groups (Shape, Length...), each with its values named in both languages and their price differences. */
export function ProductOptionsEditor({ formId, groups, onChange, errorAt }: ProductOptionsEditorProps) {
  const { t, language } = useTranslation();
  const unnamed = t(`${key}unnamed`);
  const currency = currencyLabel(settings.pricing.currency);
  const setGroup = (index: number, group: GroupForm) => onChange(groups.map((candidate, at) => (at === index ? group : candidate)));

  return (
    <fieldset className="model-section">
      <legend className="model-section__title">{t(`${key}groupsTitle`)}</legend>
      <p className="field__hint">{t(`${key}groupsHint`, { max: MAX_OPTION_GROUPS })}</p>
      <ListError formId={formId} field="optionGroups" errorAt={errorAt} />
      {groups.map((group, groupIndex) => {
        const field = `optionGroups.${groupIndex}`;
        const setValues = (values: ValueForm[]) => setGroup(groupIndex, { ...group, values });
        const setValue = (valueIndex: number, value: ValueForm) => setValues(group.values.map((candidate, at) => (at === valueIndex ? value : candidate)));
        return (
          <fieldset key={group.key} className="model-card">
            <legend className="model-card__title">
              {t(`${key}groupTitle`, { number: groupIndex + 1 })}
              {(group.nameEn || group.nameBg) && `: ${rowName(group, language, unnamed)}`}
            </legend>
            <div className="model-pair">
              <ModelTextField formId={formId} field={`${field}.name`} label={t(`${key}groupNameEn`)} lang="en" value={group.nameEn} onChange={(nameEn) => setGroup(groupIndex, { ...group, nameEn })} errorAt={errorAt} maxLength={100} />
              <ModelTextField
                formId={formId}
                field={`${field}.name.bg`}
                label={t(`${key}groupNameBg`)}
                lang="bg"
                value={group.nameBg}
                onChange={(nameBg) => setGroup(groupIndex, { ...group, nameBg })}
                errorAt={errorAt}
                maxLength={100}
              />
            </div>
            <h3 className="model-card__subtitle">{t(`${key}valuesTitle`)}</h3>
            <ListError formId={formId} field={`${field}.values`} errorAt={errorAt} />
            <ol className="model-rows">
              {group.values.map((value, valueIndex) => {
                const valueField = `${field}.values.${valueIndex}`;
                const name = rowName(value, language, unnamed);
                return (
                  <li key={value.key}>
                    <fieldset className="model-row">
                      <legend className="model-row__number">{t(`${key}valueNumber`, { number: valueIndex + 1 })}</legend>
                      <div className="model-row__fields">
                        <ModelTextField formId={formId} field={`${valueField}.name`} label={t(`${key}valueNameEn`)} lang="en" value={value.nameEn} onChange={(nameEn) => setValue(valueIndex, { ...value, nameEn })} errorAt={errorAt} maxLength={100} />
                        <ModelTextField
                          formId={formId}
                          field={`${valueField}.name.bg`}
                          label={t(`${key}valueNameBg`)}
                          lang="bg"
                          value={value.nameBg}
                          onChange={(nameBg) => setValue(valueIndex, { ...value, nameBg })}
                          errorAt={errorAt}
                          maxLength={100}
                        />
                        <ModelTextField
                          formId={formId}
                          field={`${valueField}.priceDeltaMinor`}
                          label={t(`${key}priceDelta`, { currency })}
                          inputMode="decimal"
                          className="model-field--short"
                          value={value.delta}
                          onChange={(delta) => setValue(valueIndex, { ...value, delta })}
                          errorAt={errorAt}
                          maxLength={12}
                        />
                      </div>
                      <RowActions name={name} index={valueIndex} count={group.values.length} onMove={(from, to) => setValues(moved(group.values, from, to))} onRemove={() => setValues(group.values.filter((_, at) => at !== valueIndex))} />
                    </fieldset>
                  </li>
                );
              })}
            </ol>
            <p className="field__hint">{t(`${key}priceDeltaHint`)}</p>
            <div className="form-actions">
              {group.values.length < MAX_OPTION_VALUES && (
                <button type="button" className="button button--small" onClick={() => setValues([...group.values, emptyValue()])}>
                  {t(`${key}addValue`)}
                </button>
              )}
              <button type="button" className="button button--small button--ghost" onClick={() => onChange(groups.filter((_, at) => at !== groupIndex))}>
                {t(`${key}removeGroup`)}
              </button>
            </div>
          </fieldset>
        );
      })}
      {groups.length < MAX_OPTION_GROUPS && (
        <button type="button" className="button button--small" onClick={() => onChange([...groups, emptyGroup()])}>
          {t(`${key}addGroup`)}
        </button>
      )}
    </fieldset>
  );
}

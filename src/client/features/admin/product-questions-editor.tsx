import { useId } from 'react';
import { useTranslation } from '#client/i18n/i18n.js';
import { settings } from '#client/settings.js';
import { currencyLabel } from '#client/ui/price-text.js';
import { ListError, ModelTextField, RowActions, fieldId, moved, rowName, type ErrorAt } from './model-fields.js';
import { MAX_PRODUCT_QUESTIONS, MAX_QUESTION_CHOICES, emptyQuestion, emptyValue, type QuestionForm, type ValueForm } from './product-model-form.js';

interface ProductQuestionsEditorProps {
  formId: string;
  questions: QuestionForm[];
  onChange(questions: QuestionForm[]): void;
  errorAt: ErrorAt;
}

const key = 'admin.products.model.';

/** Up to five questions to the buyer (short text or a choice), each in both languages, with its add-on. */
export function ProductQuestionsEditor({ formId, questions, onChange, errorAt }: ProductQuestionsEditorProps) {
  const { t, language } = useTranslation();
  const id = useId();
  const unnamed = t(`${key}unnamed`);
  const currency = currencyLabel(settings.pricing.currency);
  const setQuestion = (index: number, question: QuestionForm) => onChange(questions.map((candidate, at) => (at === index ? question : candidate)));

  return (
    <fieldset className="model-section">
      <legend className="model-section__title">{t(`${key}questionsTitle`)}</legend>
      <p className="field__hint">{t(`${key}questionsHint`, { max: MAX_PRODUCT_QUESTIONS })}</p>
      <ListError formId={formId} field="questions" errorAt={errorAt} />
      {questions.map((question, index) => {
        const field = `questions.${index}`;
        const name = rowName({ nameEn: question.labelEn, nameBg: question.labelBg }, language, unnamed);
        const setChoices = (choices: ValueForm[]) => setQuestion(index, { ...question, choices });
        const setChoice = (choiceIndex: number, choice: ValueForm) => setChoices(question.choices.map((candidate, at) => (at === choiceIndex ? choice : candidate)));
        const kindId = fieldId(formId, `${field}.kind`);
        return (
          <fieldset key={question.key} className="model-card">
            <legend className="model-card__title">
              {t(`${key}questionTitle`, { number: index + 1 })}
              {(question.labelEn || question.labelBg) && `: ${name}`}
            </legend>
            <div className="model-pair">
              <ModelTextField formId={formId} field={`${field}.label`} label={t(`${key}labelEn`)} lang="en" value={question.labelEn} onChange={(labelEn) => setQuestion(index, { ...question, labelEn })} errorAt={errorAt} maxLength={200} />
              <ModelTextField formId={formId} field={`${field}.label.bg`} label={t(`${key}labelBg`)} lang="bg" value={question.labelBg} onChange={(labelBg) => setQuestion(index, { ...question, labelBg })} errorAt={errorAt} maxLength={200} />
            </div>
            <div className="model-pair">
              <div className="field">
                <label className="field__label" htmlFor={kindId}>
                  {t(`${key}kind`)}
                </label>
                <select
                  id={kindId}
                  className="field__input"
                  value={question.kind}
                  onChange={(event) => {
                    const kind = event.target.value === 'choice' ? 'choice' : 'text';
                    // A question turned into a choice starts with a choice to name, not an empty list to refuse.
                    setQuestion(index, { ...question, kind, choices: kind === 'choice' && question.choices.length === 0 ? [emptyValue()] : question.choices });
                  }}
                >
                  <option value="text">{t(`${key}kinds.text`)}</option>
                  <option value="choice">{t(`${key}kinds.choice`)}</option>
                </select>
              </div>
              {question.kind === 'text' && (
                <ModelTextField
                  formId={formId}
                  field={`${field}.maxLength`}
                  label={t(`${key}maxLength`)}
                  inputMode="numeric"
                  className="model-field--short"
                  value={question.maxLength}
                  onChange={(maxLength) => setQuestion(index, { ...question, maxLength })}
                  errorAt={errorAt}
                  maxLength={4}
                />
              )}
            </div>
            <div className="model-pair">
              <ModelTextField
                formId={formId}
                field={`${field}.priceDeltaMinor`}
                label={t(`${key}addOn`, { currency })}
                inputMode="decimal"
                className="model-field--short"
                value={question.delta}
                onChange={(delta) => setQuestion(index, { ...question, delta })}
                errorAt={errorAt}
                maxLength={12}
              />
              <label className="choice model-required">
                <input type="checkbox" id={`${id}-required-${question.key}`} checked={question.required} onChange={(event) => setQuestion(index, { ...question, required: event.target.checked })} />
                <span>{t(`${key}required`)}</span>
              </label>
            </div>
            {question.kind === 'choice' && (
              <>
                <h3 className="model-card__subtitle">{t(`${key}choicesTitle`)}</h3>
                <ListError formId={formId} field={`${field}.choices`} errorAt={errorAt} />
                <ol className="model-rows">
                  {question.choices.map((choice, choiceIndex) => {
                    const choiceField = `${field}.choices.${choiceIndex}`;
                    return (
                      <li key={choice.key}>
                        <fieldset className="model-row">
                          <legend className="model-row__number">{t(`${key}choiceNumber`, { number: choiceIndex + 1 })}</legend>
                          <div className="model-row__fields">
                            <ModelTextField formId={formId} field={`${choiceField}.name`} label={t(`${key}valueNameEn`)} lang="en" value={choice.nameEn} onChange={(nameEn) => setChoice(choiceIndex, { ...choice, nameEn })} errorAt={errorAt} maxLength={100} />
                            <ModelTextField formId={formId} field={`${choiceField}.name.bg`} label={t(`${key}valueNameBg`)} lang="bg" value={choice.nameBg} onChange={(nameBg) => setChoice(choiceIndex, { ...choice, nameBg })} errorAt={errorAt} maxLength={100} />
                            <ModelTextField
                              formId={formId}
                              field={`${choiceField}.priceDeltaMinor`}
                              label={t(`${key}priceDelta`, { currency })}
                              inputMode="decimal"
                              className="model-field--short"
                              value={choice.delta}
                              onChange={(delta) => setChoice(choiceIndex, { ...choice, delta })}
                              errorAt={errorAt}
                              maxLength={12}
                            />
                          </div>
                          <RowActions
                            name={rowName(choice, language, unnamed)}
                            index={choiceIndex}
                            count={question.choices.length}
                            onMove={(from, to) => setChoices(moved(question.choices, from, to))}
                            onRemove={() => setChoices(question.choices.filter((_, at) => at !== choiceIndex))}
                          />
                        </fieldset>
                      </li>
                    );
                  })}
                </ol>
                {question.choices.length < MAX_QUESTION_CHOICES && (
                  <button type="button" className="button button--small" onClick={() => setChoices([...question.choices, emptyValue()])}>
                    {t(`${key}addChoice`)}
                  </button>
                )}
              </>
            )}
            <div className="form-actions">
              <button type="button" className="button button--small button--ghost" onClick={() => onChange(questions.filter((_, at) => at !== index))}>
                {t(`${key}removeQuestion`)}
              </button>
            </div>
          </fieldset>
        );
      })}
      {questions.length < MAX_PRODUCT_QUESTIONS && (
        <button type="button" className="button button--small" onClick={() => onChange([...questions, emptyQuestion()])}>
          {t(`${key}addQuestion`)}
        </button>
      )}
    </fieldset>
  );
}

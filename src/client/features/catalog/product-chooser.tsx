import { useEffect, useId, useState, type ReactNode } from 'react';
import type { Product } from '#shared/catalog.js';
import { choiceKey, combinationKey, summarizeChoices, unitPriceMinor, validateChoices, type ChoiceProblem, type LineChoices, type ProductQuestion } from '#shared/product-options.js';
import { stockLevel } from '#shared/stock.js';
import { dispatchDate } from '#shared/working-days.js';
import type { ChosenLine } from '#client/cart/cart-context.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { availability, problemsOf } from './choice-rules.js';
import { Localized, useLocalize } from '#client/i18n/localized.js';
import { useSession } from '#client/session/session.js';
import { completeSizes, EMPTY_SIZES, NailSizeFields, type SizesDraft } from '#client/sizes/nail-size-fields.js';
import { useSavedNailSizes, useSizeChart } from '#client/sizes/sizes-api.js';
import { Price, usePriceText } from '#client/ui/price.js';
import { ShipsBy } from '#client/ui/ships-by.js';

interface ProductChooserProps {
  product: Product;
  busy: boolean;
  soldOut: boolean;
  /** The product's stock, said under the price; null when each combination has its own count. */
  stockNote: ReactNode;
  /** Adds the line; calls back with the shop's refusal of a choice. */
  onAdd(chosen: ChosenLine, onRefused: (problem: ChoiceProblem, message: string) => void): void;
}

/**
 * What a buyer chooses before adding a product made for her: a value of each option group (never a
 * combination that is not sold or sold out), ten sizes when sized (her saved ones filled in), and
 * answers to the product's questions. The price follows the choices, and the dispatch date the lead time.
 */
export function ProductChooser({ product, busy, soldOut, stockNote, onAdd }: ProductChooserProps) {
  const { t } = useTranslation();
  const localize = useLocalize();
  const priceText = usePriceText();
  const { user } = useSession();
  const chart = useSizeChart();
  const saved = useSavedNailSizes(product.sized && user ? user.email : null);
  const [options, setOptions] = useState<Record<string, string>>({});
  const [sizes, setSizes] = useState<SizesDraft>(EMPTY_SIZES);
  const [sizesFrom, setSizesFrom] = useState<'none' | 'saved' | 'buyer'>('none');
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [checked, setChecked] = useState(false);
  const idPrefix = useId();

  // A returning buyer never measures twice: her saved sizes fill the picker, unless she has started choosing.
  const savedSizes = saved.data ?? null;
  useEffect(() => {
    if (savedSizes && sizesFrom === 'none') {
      setSizes([...savedSizes]);
      setSizesFrom('saved');
    }
  }, [savedSizes, sizesFrom]);

  const sized = completeSizes(sizes);
  const choices: LineChoices = { options, sizes: product.sized ? sized : null, answers };
  const problems = problemsOf(product, choices, sizes.filter((size) => size !== null).length, chart);
  const shownErrors = checked ? { ...Object.fromEntries(problems.map((problem) => [problem.field, t(problem.messageKey)])), ...errors } : errors;
  const clearError = (field: string) =>
    setErrors((current) => {
      const { [field]: _cleared, ...rest } = current;
      return rest;
    });

  const chosenCombination =
    product.stockMode === 'combination' && product.optionGroups.every((group) => options[group.id])
      ? product.combinations.find((combination) => combination.key === combinationKey(product.optionGroups, options))
      : undefined;
  const level = chosenCombination ? stockLevel(chosenCombination.stock) : null;

  const submit = () => {
    setChecked(true);
    const result = validateChoices(product, choices, chart);
    if ('problem' in result || problems.length > 0) {
      // The first marked field takes the focus, for the buyer to see what to change.
      requestAnimationFrame(() => document.querySelector<HTMLElement>(`#${CSS.escape(idPrefix)}-chooser [aria-invalid='true']`)?.focus());
      return;
    }
    const cleaned = result.choices;
    onAdd({ choices: cleaned, choiceKey: choiceKey(cleaned), summary: summarizeChoices(product, cleaned), priceMinor: unitPriceMinor(product, cleaned) }, (problem, message) =>
      setErrors({ [problem.field]: message }),
    );
  };

  const delta = (minor: number) => (minor === 0 ? null : `${minor > 0 ? '+' : '−'}${priceText(Math.abs(minor))}`);
  const dispatchBy = dispatchDate(product.leadTime, new Date());
  const hasErrors = Object.keys(shownErrors).length > 0;

  return (
    <div className="chooser" id={`${idPrefix}-chooser`}>
      <p className="product-page__price">
        <span className="visually-hidden">{t('productPage.price')}: </span>
        <Price minor={unitPriceMinor(product, choices)} />
      </p>
      {stockNote}
      {level && (
        <p className={`product-page__stock${level === 'soldOut' ? ' product-page__stock--out' : ''}`}>
          {level === 'madeToOrder'
            ? t('productPage.madeToOrder')
            : level === 'inStock'
              ? t('productPage.inStock')
              : level === 'soldOut'
                ? t('products.stock.soldOut')
                : t('products.stock.low', { count: chosenCombination!.stock! })}
        </p>
      )}
      {product.optionGroups.map((group) => {
        const field = `option:${group.id}`;
        const error = shownErrors[field];
        const errorId = `${idPrefix}-${group.id}-error`;
        return (
          <fieldset key={group.id} className="option-group" aria-describedby={error ? errorId : undefined}>
            <legend className="option-group__legend">
              <Localized text={group.name} />
            </legend>
            <div className="option-group__values">
              {group.values.map((value) => {
                const unavailable = availability(product, options, group, value.id);
                const change = delta(value.priceDeltaMinor);
                return (
                  <label key={value.id} className={`option-chip${unavailable ? ' option-chip--unavailable' : ''}`}>
                    <input
                      type="radio"
                      className="option-chip__input"
                      name={`${idPrefix}-${group.id}`}
                      value={value.id}
                      checked={options[group.id] === value.id}
                      disabled={unavailable !== null}
                      aria-invalid={error ? true : undefined}
                      onChange={() => {
                        const next = { ...options, [group.id]: value.id };
                        // A value that rules out what was chosen in another group starts the others again.
                        const fits = product.optionGroups.every((other) => !next[other.id] || availability(product, next, other, next[other.id]!) === null);
                        setOptions(fits ? next : { [group.id]: value.id });
                        for (const other of product.optionGroups) clearError(`option:${other.id}`);
                      }}
                    />
                    <span className="option-chip__name">{localize(value.name)}</span>
                    {change && <span className="option-chip__delta">{change}</span>}
                    {unavailable && <span className="option-chip__reason">{t(unavailable === 'soldOut' ? 'productPage.soldOut' : 'productPage.unavailable')}</span>}
                  </label>
                );
              })}
            </div>
            {error && (
              <p className="field__error" id={errorId}>
                {error}
              </p>
            )}
          </fieldset>
        );
      })}
      {product.sized && (
        <NailSizeFields
          value={sizes}
          onChange={(next) => {
            setSizes(next);
            setSizesFrom('buyer');
            clearError('sizes');
          }}
          chart={chart}
          saved={savedSizes}
          error={shownErrors.sizes}
          note={
            sizesFrom === 'saved' && (
              <p className="muted chooser__note" role="status">
                {t('sizes.filledFromSaved')}
              </p>
            )
          }
        />
      )}
      {product.questions.map((question) => (
        <QuestionField
          key={question.id}
          id={`${idPrefix}-${question.id}`}
          question={question}
          value={answers[question.id] ?? ''}
          error={shownErrors[`answer:${question.id}`]}
          deltaText={delta}
          onChange={(answer) => {
            setAnswers((current) => ({ ...current, [question.id]: answer }));
            clearError(`answer:${question.id}`);
          }}
        />
      ))}
      <div className="chooser__dispatch">
        {product.leadTime.kind === 'made_to_order' ? (
          <p className="muted">{t('productPage.madeToOrderDays', { min: product.leadTime.minDays, max: product.leadTime.maxDays })}</p>
        ) : null}
        <ShipsBy dates={[dispatchBy]} />
      </div>
      {hasErrors && (
        <p className="form-error" role="alert">
          {t('productPage.checkChoices')}
        </p>
      )}
      <button
        type="button"
        className="button button--primary button--large"
        onClick={() => {
          if (!busy && !soldOut) submit();
        }}
        aria-disabled={busy || soldOut || undefined}
        aria-label={busy ? undefined : soldOut ? t('products.soldOutLabel', { productName: localize(product.name) }) : t('products.addToCartLabel', { productName: localize(product.name) })}
      >
        {busy ? t('products.adding') : soldOut ? t('products.stock.soldOut') : t('products.addToCart')}
      </button>
    </div>
  );
}

interface QuestionFieldProps {
  id: string;
  question: ProductQuestion;
  value: string;
  error: string | undefined;
  /** "+2,00 €" for a price difference, null for none. */
  deltaText(minor: number): string | null;
  onChange(answer: string): void;
}

/** A question as a text field with its length counter, or a choice as a select; "required" says so in its label. */
function QuestionField({ id, question, value, error, deltaText, onChange }: QuestionFieldProps) {
  const { t } = useTranslation();
  const localize = useLocalize();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [question.kind === 'text' ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    className: 'field__input',
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    'aria-required': question.required || undefined,
  };
  return (
    <div className="field chooser__question">
      <label className="field__label" htmlFor={id}>
        <Localized text={question.label} />
        {question.required && <span className="field__required"> ({t('productPage.required')})</span>}
        {deltaText(question.priceDeltaMinor) && <span className="option-chip__delta"> {deltaText(question.priceDeltaMinor)}</span>}
      </label>
      {question.kind === 'text' ? (
        <>
          {/* No maxLength: a pasted text longer than allowed is shown and refused with a reason, not cut unseen. */}
          <textarea {...common} rows={question.maxLength > 80 ? 2 : 1} value={value} onChange={(event) => onChange(event.target.value)} />
          <span id={hintId} className={`field__hint${[...value].length > question.maxLength ? ' field__hint--over' : ''}`}>
            {t('productPage.charsLeft', { count: Math.max(0, question.maxLength - [...value].length) })}
          </span>
        </>
      ) : (
        <select {...common} value={value} onChange={(event) => onChange(event.target.value)}>
          <option value="">{t('productPage.chooseAnswer')}</option>
          {question.choices.map((choice) => (
            <option key={choice.id} value={choice.id}>
              {localize(choice.name)}
              {deltaText(choice.priceDeltaMinor) ? ` (${deltaText(choice.priceDeltaMinor)})` : ''}
            </option>
          ))}
        </select>
      )}
      {error && (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}

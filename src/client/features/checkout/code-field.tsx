import { useId } from 'react';

export interface CodeFieldProps {
  label: string;
  name: string;
  /** What is in the box, and the code applied ('' when none is). */
  typed: string;
  applied: string;
  onType: (typed: string) => void;
  /** Applies a code; '' removes the one applied. */
  onApply: (code: string) => void;
  checking: boolean;
  /** Why the code does nothing, in the buyer's language; null when it applies or none was typed. */
  problem: string | null;
  /** What the applied code does, said under the box. */
  appliedText: string;
  texts: { apply: string; remove: string; checking: string };
}

/**
 * A code the buyer types in the order summary (a discount code, a gift card): the box, a button that
 * applies it (or removes the one applied), and what it does or why not, announced as it changes.
 */
export function CodeField({ label, name, typed, applied, onType, onApply, checking, problem, appliedText, texts }: CodeFieldProps) {
  const inputId = useId();
  const messageId = useId();
  return (
    <form
      className="discount-code"
      onSubmit={(event) => {
        event.preventDefault();
        onApply(typed);
      }}
    >
      <label htmlFor={inputId} className="field__label">
        {label}
      </label>
      <div className="discount-code__row">
        <input
          id={inputId}
          name={name}
          className="field__input"
          value={typed}
          maxLength={64}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          aria-invalid={problem !== null}
          aria-describedby={messageId}
          onChange={(event) => onType(event.target.value)}
        />
        {applied && typed.trim() === applied ? (
          <button type="button" className="button" onClick={() => onApply('')}>
            {texts.remove}
          </button>
        ) : (
          <button type="submit" className="button" disabled={typed.trim() === '' || checking}>
            {texts.apply}
          </button>
        )}
      </div>
      <p id={messageId} role="status" className={problem ? 'form-error' : 'muted'}>
        {checking ? texts.checking : (problem ?? appliedText)}
      </p>
    </form>
  );
}

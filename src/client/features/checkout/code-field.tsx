import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';

/** A code box's text and the code applied from it, kept in the tab (sessionStorage) while the buyer goes back to her cart and returns. */
export interface TypedCode {
  typed: string;
  setTyped: (typed: string) => void;
  /** The code applied, trimmed; '' when none is. */
  applied: string;
  /** Applies a code; '' removes the one applied. */
  apply: (code: string) => void;
}

export function useTypedCode(storageKey: string): TypedCode {
  const [applied, setApplied] = useState(() => sessionStorage.getItem(storageKey) ?? '');
  const [typed, setTyped] = useState(applied);
  const apply = (next: string) => {
    const trimmed = next.trim();
    setApplied(trimmed);
    setTyped(trimmed);
    if (trimmed) sessionStorage.setItem(storageKey, trimmed);
    else sessionStorage.removeItem(storageKey);
  };
  return { typed, setTyped, applied, apply };
}

/**
 * The server's check of an applied code (a discount code, a gift card), under the cart's query keys so
 * that it is asked again whenever the cart changes, but not while the buyer's own order is placed, nor
 * after: the order's change to the cart (which may reach the page before the order's answer) would ask
 * about a code or card the order has just used up, and be refused. `enabled` reaches the query in an
 * effect, after the render is painted, which on a slow device came after that notice; `placing` is
 * therefore also read when the query runs, and the check then answers with what it knew. `recheck`
 * asks again at once (after the server refused the order for the code).
 */
export function useCodeCheck<T>(queryKey: readonly unknown[], ask: () => Promise<T>, { enabled, placing, staleTime }: { enabled: boolean; placing: boolean; staleTime: number }) {
  const queryClient = useQueryClient();
  const placingNow = useRef(placing);
  placingNow.current = placing;
  const check = useQuery({
    queryKey,
    queryFn: () => (placingNow.current ? (queryClient.getQueryData<T>(queryKey) ?? ask()) : ask()),
    enabled: enabled && !placing,
    retry: false,
    staleTime,
  });
  // Asked for after the server refused the order for this code: that order is no longer being placed.
  const recheck = () => {
    placingNow.current = false;
    void check.refetch();
  };
  return { check, recheck };
}

export interface CodeFieldProps {
  label: string;
  name: string;
  /** What is in the box, and the code applied from it (useTypedCode). */
  code: TypedCode;
  checking: boolean;
  /** Why the code does nothing, in the buyer's language; null when it applies or none was typed. */
  problem: string | null;
  /** What the applied code does, said under the box. */
  appliedText: string;
  texts: { apply: string; remove: string; checking: string };
}

/**
 * A code the buyer types in the order summary (a discount code, a gift card): the box, a button that
 * applies it (or removes the one applied), and what it does or why not, announced as it changes. A
 * code that does nothing is not shown as applied: its button stays Apply, waiting for another code,
 * and its reason goes once the buyer types another.
 */
export function CodeField({ label, name, code, checking, problem, appliedText, texts }: CodeFieldProps) {
  const { typed, setTyped, applied, apply } = code;
  const inputId = useId();
  const messageId = useId();
  const inBox = applied !== '' && typed.trim() === applied;
  const refused = inBox && problem !== null;
  return (
    <form
      className="discount-code"
      onSubmit={(event) => {
        event.preventDefault();
        apply(typed);
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
          aria-invalid={refused}
          aria-describedby={messageId}
          onChange={(event) => setTyped(event.target.value)}
        />
        {inBox && !refused ? (
          <button type="button" className="button" onClick={() => apply('')}>
            {texts.remove}
          </button>
        ) : (
          <button type="submit" className="button" disabled={typed.trim() === '' || checking || refused}>
            {texts.apply}
          </button>
        )}
      </div>
      <p id={messageId} role="status" className={refused ? 'form-error' : 'muted'}>
        {checking ? texts.checking : refused ? problem : problem === null ? appliedText : ''}
      </p>
    </form>
  );
}

import { useEffect, useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { searchSynonymsSchema, type SearchSynonyms } from '#shared/catalog-schemas.js';
import { errorText, refusedField } from '#client/api/error-text.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { LoadErrorMessage, LoadingMessage } from '#client/ui/state-message.js';
import { saveSearchSynonyms, useSearchSynonyms } from './admin-api.js';

const key = 'admin.synonyms.';

/** The synonyms as the admin writes them: a group a line, its words or phrases parted by commas. */
const toText = ({ groups }: SearchSynonyms) => groups.map((group) => group.join(', ')).join('\n');

/** The groups of the text, with the line each was written on (blank lines are skipped). */
function fromText(text: string): { synonyms: SearchSynonyms; lines: number[] } {
  const groups: string[][] = [];
  const lines: number[] = [];
  text.split('\n').forEach((line, index) => {
    const phrases = line
      .split(',')
      .map((phrase) => phrase.trim())
      .filter(Boolean);
    if (phrases.length === 0) return;
    groups.push(phrases);
    lines.push(index + 1);
  });
  return { synonyms: { groups }, lines };
}

/** The line a refused field ("groups.2" or "groups.2.1") names, if any. */
const lineOf = (field: string | undefined, lines: number[]) => {
  const group = field?.split('.')[1];
  return group === undefined ? undefined : lines[Number(group)];
};

/**
 * The shop's search synonyms: words and phrases that mean the same to a shopper, a group a line,
 * so that a search for one finds products holding another. Saved whole; the server checks them as
 * the form does.
 */
export default function SearchSynonymsEditor({ onToast }: { onToast(toast: { message: string; kind: 'success' | 'error' }): void }) {
  const { t } = useTranslation();
  const synonyms = useSearchSynonyms();
  const queryClient = useQueryClient();
  const id = useId();
  const [text, setText] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  // The text starts from the synonyms as loaded, once; a refetch does not overwrite what the admin is typing.
  const loaded = synonyms.data;
  useEffect(() => {
    if (loaded && text === null) setText(toText(loaded));
  }, [loaded, text]);

  if (synonyms.isPending || (synonyms.isSuccess && text === null)) return <LoadingMessage>{t(`${key}loading`)}</LoadingMessage>;
  if (synonyms.isError || text === null) return <LoadErrorMessage message={t(`${key}loadError`)} onRetry={synonyms.refetch} />;

  const refuse = (message: string, line: number | undefined) => {
    setProblem(line === undefined ? message : t(`${key}lineError`, { line, message }));
    requestAnimationFrame(() => document.getElementById(`${id}-text`)?.focus());
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const { synonyms: typed, lines } = fromText(text);
    const checked = searchSynonymsSchema.safeParse(typed);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      return refuse(t(issue?.message ?? `${key}messages.noWord`), lineOf(issue?.path.join('.'), lines));
    }
    setSaving(true);
    try {
      const saved = await saveSearchSynonyms(checked.data, queryClient);
      setText(toText(saved));
      setProblem(null);
      onToast({ message: t(`${key}saved`), kind: 'success' });
    } catch (failure) {
      const refused = refusedField(t, failure);
      if (refused) refuse(t(refused.messageKey), lineOf(refused.field, lines));
      else onToast({ message: errorText(t, failure), kind: 'error' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="synonyms-editor" onSubmit={(event) => void submit(event)} noValidate>
      <h2 className="section-title">{t(`${key}title`)}</h2>
      <p className="field__hint" id={`${id}-hint`}>
        {t(`${key}intro`)}
      </p>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-text`}>
          {t(`${key}label`)}
        </label>
        <textarea
          id={`${id}-text`}
          className="field__input synonyms-editor__text"
          rows={10}
          value={text}
          placeholder={t(`${key}placeholder`)}
          aria-describedby={`${id}-hint${problem ? ` ${id}-problem` : ''}`}
          aria-invalid={problem ? true : undefined}
          onChange={(event) => {
            setText(event.target.value);
            setProblem(null);
          }}
        />
        {problem && (
          <p className="field__error" id={`${id}-problem`} role="alert">
            {problem}
          </p>
        )}
      </div>
      <button type="submit" className="button button--primary" disabled={saving}>
        {saving ? t(`${key}saving`) : t(`${key}save`)}
      </button>
    </form>
  );
}

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { pickText } from '#shared/catalog.js';
import { MAX_REVIEW_PHOTOS, REVIEW_TEXT_MAX_LENGTH, reviewInputSchema, type ReviewableLine } from '#shared/reviews.js';
import { productPath } from '#shared/routes.js';
import { errorText, refusedField } from '#client/api/error-text.js';
import { requestJson } from '#client/api/http.js';
import { queryKeys } from '#client/api/query-keys.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { ChoiceSummaryText } from '#client/ui/choice-summary.js';
import { focusOnMount } from '#client/ui/focus-on-mount.js';
import { Stars } from '#client/ui/stars.js';

/** The largest photo the shop takes (MAX_UPLOAD_BYTES on the server). */
const MAX_PHOTO_BYTES = 10 * 1024 * 1024;

const useMyReviews = () => useQuery({ queryKey: queryKeys.myReviews(), queryFn: () => requestJson<{ lines: ReviewableLine[] }>('/api/reviews/mine') });

/** A delivered order's pieces in the buyer's profile, each with her review or the button to write one. */
export function OrderReviews({ orderId }: { orderId: string }) {
  const { t } = useTranslation();
  const mine = useMyReviews();
  const lines = mine.data?.lines.filter((line) => line.orderId === orderId) ?? [];
  if (lines.length === 0) return null;
  return (
    <section className="order-reviews" aria-label={t('reviews.yourReviews')}>
      <h3 className="order-reviews__title">{t('reviews.yourReviews')}</h3>
      <ul className="order-reviews__lines">
        {lines.map((line) => (
          <ReviewLine key={line.orderItemId} line={line} />
        ))}
      </ul>
    </section>
  );
}

function ReviewLine({ line }: { line: ReviewableLine }) {
  const { t, language } = useTranslation();
  const [writing, setWriting] = useState(false);
  // Back from a cancelled form, the focus returns to the button that opened it.
  const [cancelled, setCancelled] = useState(false);
  const name = pickText(line.name, language).text;
  return (
    <li className="order-reviews__line">
      <p className="order-reviews__product">
        <Link href={productPath(line.productSlug)}>{name}</Link>
        <ChoiceSummaryText summary={line.choices} />
      </p>
      {line.review ? (
        <p className="order-reviews__state" role="status">
          <Stars rating={line.review.rating} /> <span className="muted">{t(`reviews.status.${line.review.status}`)}</span>
        </p>
      ) : writing ? (
        <ReviewForm
          line={line}
          productName={name}
          onCancel={() => {
            setWriting(false);
            setCancelled(true);
          }}
        />
      ) : (
        <button type="button" className="button" aria-label={t('reviews.writeFor', { name })} ref={cancelled ? focusOnMount : undefined} onClick={() => setWriting(true)}>
          {t('reviews.write')}
        </button>
      )}
    </li>
  );
}

type Field = 'rating' | 'text' | 'name' | 'photos';

function ReviewForm({ line, productName, onCancel }: { line: ReviewableLine; productName: string; onCancel(): void }) {
  const { t, language } = useTranslation();
  const queryClient = useQueryClient();
  const id = useId();
  const [rating, setRating] = useState(0);
  const [text, setText] = useState('');
  const [name, setName] = useState(line.suggestedName);
  const [photos, setPhotos] = useState<File[]>([]);
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState<{ field: Field | null; message: string } | null>(null);

  const refuse = (field: Field | null, message: string) => {
    setProblem({ field, message });
    const target = field === 'rating' ? `${id}-rating-1` : field ? `${id}-${field}` : null;
    if (target) requestAnimationFrame(() => document.getElementById(target)?.focus());
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending) return;
    const checked = reviewInputSchema.safeParse({ orderItemId: line.orderItemId, rating, text, name, language });
    if (!checked.success) {
      const issue = checked.error.issues[0];
      const field = (['rating', 'text', 'name'] as const).find((known) => known === issue?.path[0]) ?? null;
      return refuse(field, t(issue?.message ?? 'reviews.errors.textMissing'));
    }
    if (photos.length > MAX_REVIEW_PHOTOS) return refuse('photos', t('reviews.errors.tooManyPhotos'));
    if (photos.some((photo) => photo.size > MAX_PHOTO_BYTES)) return refuse('photos', t('reviews.errors.photoTooLarge'));
    const form = new FormData();
    for (const [field, value] of Object.entries(checked.data)) form.append(field, String(value));
    for (const photo of photos) form.append('photo', photo);
    setSending(true);
    try {
      await requestJson('/api/reviews', { method: 'POST', body: form });
      await queryClient.invalidateQueries({ queryKey: queryKeys.myReviews() });
    } catch (failure) {
      const refused = refusedField(t, failure);
      if (refused) refuse((['rating', 'text', 'name', 'photos'] as const).find((known) => known === refused.field) ?? null, t(refused.messageKey));
      else refuse(null, errorText(t, failure));
      setSending(false);
    }
  };

  const describedBy = (field: Field, hint?: string) => [problem?.field === field ? `${id}-problem` : '', hint ?? ''].filter(Boolean).join(' ') || undefined;

  return (
    <form className="review-form" onSubmit={(event) => void submit(event)} noValidate aria-label={t('reviews.formLabel', { name: productName })}>
      <fieldset className="review-form__rating" aria-invalid={problem?.field === 'rating' || undefined} aria-describedby={describedBy('rating')}>
        <legend className="field__label">{t('reviews.rating')}</legend>
        {[1, 2, 3, 4, 5].map((star) => (
          <label key={star} className={star <= rating ? 'review-form__star review-form__star--on' : 'review-form__star'}>
            <input
              id={`${id}-rating-${star}`}
              type="radio"
              name={`${id}-rating`}
              value={star}
              checked={rating === star}
              ref={star === 1 ? focusOnMount : undefined}
              onChange={() => setRating(star)}
            />
            <span aria-hidden="true">{star <= rating ? '★' : '☆'}</span>
            <span className="visually-hidden">{t('reviews.starOption', { count: star })}</span>
          </label>
        ))}
      </fieldset>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-text`}>
          {t('reviews.text')}
        </label>
        <textarea
          id={`${id}-text`}
          className="field__input"
          rows={4}
          maxLength={REVIEW_TEXT_MAX_LENGTH}
          value={text}
          aria-invalid={problem?.field === 'text' || undefined}
          aria-describedby={describedBy('text', `${id}-text-hint`)}
          onChange={(event) => setText(event.target.value)}
        />
        <p className="field__hint" id={`${id}-text-hint`}>
          {t('reviews.textHint')}
        </p>
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-name`}>
          {t('reviews.name')}
        </label>
        <input
          id={`${id}-name`}
          className="field__input"
          autoComplete="given-name"
          value={name}
          aria-invalid={problem?.field === 'name' || undefined}
          aria-describedby={describedBy('name', `${id}-name-hint`)}
          onChange={(event) => setName(event.target.value)}
        />
        <p className="field__hint" id={`${id}-name-hint`}>
          {t('reviews.nameHint')}
        </p>
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-photos`}>
          {t('reviews.photos')}
        </label>
        <input
          id={`${id}-photos`}
          className="field__input"
          type="file"
          accept="image/jpeg,image/png,image/webp"
          multiple
          aria-invalid={problem?.field === 'photos' || undefined}
          aria-describedby={describedBy('photos', `${id}-photos-hint`)}
          onChange={(event) => setPhotos(Array.from(event.target.files ?? []))}
        />
        <p className="field__hint" id={`${id}-photos-hint`}>
          {t('reviews.photosHint', { count: MAX_REVIEW_PHOTOS })}
        </p>
      </div>
      {problem && (
        <p className="field__error" id={`${id}-problem`} role="alert">
          {problem.message}
        </p>
      )}
      <div className="review-form__actions">
        <button type="submit" className="button button--primary" disabled={sending}>
          {sending ? t('reviews.sending') : t('reviews.send')}
        </button>
        <button type="button" className="button" onClick={onCancel} disabled={sending}>
          {t('reviews.cancel')}
        </button>
      </div>
    </form>
  );
}

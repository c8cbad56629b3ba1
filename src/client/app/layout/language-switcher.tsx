import { useTranslation } from '#client/i18n/i18n.js';
import { LANGUAGES } from '#client/i18n/texts.js';

export function LanguageSwitcher() {
  const { t, language: active, setLanguage } = useTranslation();
  return (
    <div className="language-switcher" role="group" aria-label={t('language.label')}>
      {LANGUAGES.map((language) => (
        <button
          key={language}
          type="button"
          lang={language}
          className="language-switcher__option"
          aria-pressed={language === active}
          // The name starts with the code the button shows, so that it can be spoken as seen ("click EN").
          aria-label={`${language.toUpperCase()}, ${t(`language.${language}`)}`}
          onClick={() => setLanguage(language)}
        >
          {language.toUpperCase()}
        </button>
      ))}
    </div>
  );
}

import { useTranslation } from '../../i18n/i18n.js';
import { settings } from '../../settings.js';

export function Footer() {
  const { t } = useTranslation();
  return (
    <footer className="site-footer">
      <p>{t('footer.copyright', { year: new Date().getFullYear() })}</p>
      <p>
        {t('footer.support')} <a href={`mailto:${settings.supportEmail}`}>{settings.supportEmail}</a>
      </p>
    </footer>
  );
}

import type { CourierOffice, OfficeHours } from '#shared/delivery.js';
import { useTranslation, type Translate } from '#client/i18n/i18n.js';

function hoursText(hours: OfficeHours, t: Translate): string {
  return (['weekdays', 'saturday', 'sunday'] as const)
    .flatMap((day) => (hours[day] ? [t(`orders.delivery.hours.${day}`, { hours: hours[day] })] : []))
    .join(', ');
}

/** A courier's office or locker: its name, address and hours, and whether it takes cash on delivery. */
export function OfficeText({ office }: { office: CourierOffice }) {
  const { t, language } = useTranslation();
  const hours = hoursText(office.hours, t);
  return (
    <span className="office-text">
      <strong>{office.name[language]}</strong>
      <br />
      <span>
        {office.address[language]}, {[office.postCode, office.city[language]].filter(Boolean).join(' ')}
      </span>
      {hours && (
        <>
          <br />
          <span className="muted">{hours}</span>
        </>
      )}
      {!office.acceptsCashOnDelivery && (
        <>
          <br />
          <span className="muted">{t('orders.delivery.noCashOnDelivery')}</span>
        </>
      )}
    </span>
  );
}

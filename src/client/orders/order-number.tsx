import { useTranslation } from '#client/i18n/i18n.js';

/** Stands for the order number in the sentence, so that the number can be set in an element of its own. */
const NUMBER_PLACE = '\u0000';

/**
 * "Order #NA-7K3Q9XAB" as a heading or a link says it, the number kept on one line: a browser may break
 * a line after a hyphen, and on a phone "NA-" stood at the end of one line and the rest on the next.
 */
export function OrderNumber({ orderId }: { orderId: string }) {
  const { t } = useTranslation();
  const [before = '', after = ''] = t('orders.number', { orderId: NUMBER_PLACE }).split(NUMBER_PLACE);
  return (
    <>
      {before}
      <span className="order-number">{orderId}</span>
      {after}
    </>
  );
}

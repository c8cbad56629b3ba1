/**
 * An export of the original app's collections as firestore-export-import writes it, with every old
 * shape the specification describes: string prices (one unreadable), nailArt, totals in total,
 * totalAmount or pricing.total (and in none), a single-item order, the legacy statuses and a missing
 * one, timestamps as Firestore's seconds and nanoseconds, ISO strings and epoch milliseconds, a
 * customer written twice in different case, an unknown collection, and documents of wrong types.
 * `photos` is where the products' photos are served from (a test server, or a folder's names).
 */

const firestore = (iso: string) => {
  const ms = Date.parse(iso);
  return { _seconds: Math.floor(ms / 1000), _nanoseconds: (ms % 1000) * 1e6 };
};

const address = { fullName: 'Мария Иванова', streetAddress: 'ул. Шипка 7', city: 'София', state: '', postalCode: '1504', country: 'Bulgaria', phone: '+359888123456' };

export function legacyExport(photos: string) {
  return {
    products: {
      'prod-almond': {
        name: 'Almond Pearl Set',
        description: '<p>Press-on nails with <strong>pearls</strong>.</p><script>alert(1)</script><p>24 nails in 12 sizes.</p>',
        price: 24.9,
        category: 'nailArt',
        imageUrl: `${photos}/almond.png`,
        createdAt: firestore('2024-03-01T10:00:00Z'),
        updatedAt: firestore('2024-03-02T10:00:00Z'),
      },
      'prod-coffin': { name: 'Coffin Nude', description: 'Nude coffin set', price: '18.50', category: 'nails', imageUrl: `${photos}/coffin.png`, stock: 3, createdAt: '2024-04-01T09:00:00.000Z' },
      'prod-glue': { name: 'Nail Glue', description: 'Strong glue', price: 'ask us', category: 'accessories', imageUrl: `${photos}/missing.png`, createdAt: 1714557600000 },
      'prod-kit': { name: 'Starter Kit', description: 'Everything to start', price: '32,00', category: 'gifts', imageUrl: `${photos}/not-an-image.png` },
      'prod-nameless': { description: 'No name', price: 5 },
    },
    'art-users': {
      'maria@example.com': {
        email: 'maria@example.com',
        createdAt: firestore('2024-02-01T08:00:00Z'),
        lastLoginTime: '2024-05-20T18:30:00.000Z',
        addresses: [
          { id: 'address_1706774400000', ...address, isDefault: false, createdAt: '2024-02-01T08:05:00.000Z' },
          { id: 'address_1709251200000', ...address, streetAddress: 'бул. Витоша 10', apartment: 'ап. 4', isDefault: true, createdAt: '2024-03-01T00:00:00.000Z' },
        ],
        cart: [
          { productId: 'prod-almond', name: 'Almond Pearl Set', price: 24.9, addedAt: '2024-05-20T18:31:00.000Z' },
          { productId: 'prod-almond', name: 'Almond Pearl Set', price: 24.9, addedAt: '2024-05-20T18:32:00.000Z' },
          { productId: 'prod-gone', name: 'Removed product', price: 9, addedAt: '2024-05-20T18:33:00.000Z' },
        ],
        purchased: [{ productId: 'prod-coffin', name: 'Coffin Nude', price: 18.5 }],
      },
      'MARIA@Example.com': { email: 'MARIA@Example.com', createdAt: '2024-06-01T00:00:00.000Z', addresses: [], cart: [] },
      'petya@example.com': { email: 'petya@example.com', createdAt: 1709251200000, addresses: 'not a list', cart: [] },
      'broken-user': 'not a document',
    },
    orders: {
      'doc-1': {
        orderId: 'ORD-1001',
        customerEmail: 'maria@example.com',
        status: 'completed',
        createdAt: firestore('2024-03-10T09:00:00Z'),
        orderedAt: firestore('2024-03-10T09:00:00Z'),
        paidAt: firestore('2024-03-10T09:05:00Z'),
        shippedAt: firestore('2024-03-11T12:00:00Z'),
        completedAt: firestore('2024-03-13T15:00:00Z'),
        updatedAt: firestore('2024-03-13T15:00:00Z'),
        items: [
          { productId: 'prod-almond', name: 'Almond Pearl Set', price: 24.9 },
          { productId: 'prod-coffin', name: 'Coffin Nude', price: '18.50' },
        ],
        pricing: { subtotal: 43.4, tax: 2.17, shipping: 5.99, total: 51.56 },
        shippingAddress: address,
        paymentMethod: 'card',
        paymentReferenceId: 'ref_1001',
        itemSummary: { count: 2, description: 'Almond Pearl Set, Coffin Nude' },
        payment: { paymentId: 'pay_legacy_1001', method: 'card', amount: 51.56, processedAt: firestore('2024-03-10T09:05:00Z'), cardLast4: '4242' },
      },
      'ORD-1002': {
        customerEmail: 'maria@example.com',
        status: 'shipped',
        createdAt: '2024-04-02T10:00:00.000Z',
        paidAt: '2024-04-02T10:01:00.000Z',
        shippedAt: '2024-04-03T10:00:00.000Z',
        productId: 'prod-coffin',
        name: 'Coffin Nude',
        price: 18.5,
        addedAt: '2024-04-02T09:59:00.000Z',
        totalAmount: '24.49',
        shippingAddress: address,
        paymentMethod: 'pay_by_link',
        payment: { paymentId: 'pay_legacy_1002', method: 'pay_by_link', amount: 24.49, processedAt: '2024-04-02T10:01:00.000Z' },
      },
      'ORD-1003': {
        customerEmail: 'Petya@Example.com',
        status: 'ordered',
        createdAt: 1714557600000,
        items: [{ productId: 'prod-glue', name: 'Nail Glue', price: 7 }],
        total: 12.99,
        shippingAddress: { ...address, fullName: 'Петя Димитрова' },
        paymentMethod: 'pay_by_link',
      },
      'ORD-1004': {
        customerEmail: 'newcomer@example.com',
        createdAt: '2024-05-05T10:00:00.000Z',
        items: [
          { name: 'Gift wrap', price: 2 },
          { productId: 'prod-almond', name: 'Almond Pearl Set', price: 24.9 },
        ],
        shippingAddress: { ...address, fullName: 'Нова Клиентка' },
        paymentMethod: 'card',
      },
      'ORD-1005': { customerEmail: 'not an address', createdAt: '2024-05-06T10:00:00.000Z', items: [{ name: 'X', price: 1 }] },
      'ORD-1006': 42,
    },
    admins: {
      'owner@example.com': {},
      'random-doc-id': { email: 'Helper@Example.com' },
    },
    wishlists: { one: {} },
  };
}

/** The same shop a month later: ORD-1002 delivered, a price changed, a product and an order added. */
export function newerLegacyExport(photos: string) {
  const older = legacyExport(photos);
  return {
    ...older,
    products: {
      ...older.products,
      'prod-coffin': { ...older.products['prod-coffin'], price: '19.90' },
      'prod-stiletto': { name: 'Stiletto Noir', description: 'Black stiletto set', price: 29, category: 'nails', createdAt: '2024-06-01T00:00:00.000Z' },
    },
    orders: {
      ...older.orders,
      'ORD-1002': { ...older.orders['ORD-1002'], status: 'completed', completedAt: '2024-04-05T10:00:00.000Z', updatedAt: '2024-04-05T10:00:00.000Z' },
      'ORD-1007': {
        customerEmail: 'maria@example.com',
        status: 'paid',
        createdAt: '2024-06-02T10:00:00.000Z',
        paidAt: '2024-06-02T10:02:00.000Z',
        items: [{ productId: 'prod-stiletto', name: 'Stiletto Noir', price: 29 }],
        total: 34.99,
        shippingAddress: address,
        paymentMethod: 'card',
        payment: { paymentId: 'pay_legacy_1007', method: 'card', amount: 34.99, processedAt: '2024-06-02T10:02:00.000Z', cardLast4: '1881' },
      },
    },
  };
}

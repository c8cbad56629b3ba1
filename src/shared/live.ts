/**
 * The live channel (`GET /api/events`, Server-Sent Events) as both sides see it. Every open page,
 * a visitor's too, hears the catalogue topic; a signed-in page also hears its user's topics.
 */

/** A signed-in user's topics: each names data of that user the browser should fetch again. */
export type LiveTopic = 'cart' | 'orders';

/** The event that says the catalogue changed: a product was added, edited, deleted or given a new image. */
export const CATALOGUE_TOPIC = 'products';

/**
 * The catalogue's version goes up by one with every change. The products endpoint answers with the
 * version it read, and a stream names the current one when it is ready, so that a page can tell
 * whether a change slipped in before its stream was listening.
 */
export interface CatalogueChangeEvent {
  catalogueVersion: number;
}

/**
 * The event that says stock counts changed (an order took pieces, or cancelling it returned them):
 * the new count of each product it names. Counts change with every order, so they do not count as
 * a catalogue change, which every checkout would then wait to write.
 */
export const STOCK_TOPIC = 'stock';

/** Counts by product id; null for a product made to order. */
export type StockCounts = Record<string, number | null>;

/**
 * The most counts a stream's `ready` event carries (about 45 bytes each). A maker's shop counts far
 * fewer pieces; one that counts more gets the lowest counts, whose sale can sell a piece out.
 */
export const MAX_READY_STOCK_COUNTS = 500;

export interface StockEvent {
  stock: StockCounts;
}

/**
 * The first event of every stream, sent once the server is listening for the stream. Besides the
 * catalogue's version it carries the count of every product whose stock is counted (up to
 * MAX_READY_STOCK_COUNTS), so that a sale made before the stream listened (or while it was down) is not missed.
 */
export interface LiveReadyEvent extends CatalogueChangeEvent, StockEvent {
  /** Whether the stream belongs to a session; a page that thinks otherwise asks who it is again. */
  signedIn: boolean;
}

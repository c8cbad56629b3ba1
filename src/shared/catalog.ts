export const PRODUCT_CATEGORIES = ['nails', 'nail-art', 'accessories', 'kits'] as const;
export type ProductCategory = (typeof PRODUCT_CATEGORIES)[number];

/** A product as the API sends it. Prices are in minor units (stotinki). */
export interface Product {
  id: string;
  name: string;
  description: string;
  priceMinor: number;
  category: ProductCategory | '';
  /** Pieces in stock; null when the product is made to order (see stock.ts). */
  stock: number | null;
  imageUrl: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The products endpoint's answer: the whole catalogue and the version it was read at (see live.ts). */
export interface CatalogueResponse {
  products: Product[];
  version: number;
}

/** Widths, in pixels, in which every product image is stored as WebP. */
export const PRODUCT_IMAGE_WIDTHS = [320, 640, 960] as const;
/** Product images are square. */
export const PRODUCT_IMAGE_ASPECT_RATIO = 1;
